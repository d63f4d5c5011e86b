// The forms service's request guard: the shared guard (request id, body caps, unstorable text, every
// failure as an envelope) with the forms error table, the forms API's decode errors, and the routes
// whose bodies are not the API's JSON.
import { MAX_ASSET_BYTES, MAX_RESPONDENT_FILE_BYTES } from "@folio/domain"
import { endpointRoute, requestGuard, routePattern } from "../shared/index.js"
import { FormsApi } from "./Api.js"
import { FormsErrors } from "./errors.js"
import { MAX_FORM_POST_BYTES } from "./page/submit.js"

/** The forms service's guard; the app's one global middleware picks it for the forms paths. */
export const formsRequestGuard = requestGuard({
  errors: FormsErrors,
  api: FormsApi,
  rawBodies: [
    // Image uploads; the use case refuses one byte over the limit itself.
    { route: endpointRoute(FormsApi, "forms", "uploadAsset"), body: "upload", maxBytes: MAX_ASSET_BYTES },
    // Respondent uploads may carry the largest maxSizeMb; the block's own limit is checked after.
    {
      route: endpointRoute(FormsApi, "respondent", "upload"),
      body: "upload",
      maxBytes: MAX_RESPONDENT_FILE_BYTES
    },
    // The form page's JavaScript-off post: the whole form with its files in one body (see submit.ts).
    { route: routePattern("/f/:slug"), body: "form", maxBytes: MAX_FORM_POST_BYTES },
    // The MCP endpoint checks its own body (JSON-RPC errors) and its tools' arguments. Its path is
    // adapters-mcp's FORMS_MCP_PATH, which this package may not import (adapters import no adapter).
    { route: routePattern("/forms/mcp"), body: "own" }
  ]
})
