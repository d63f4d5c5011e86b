// The forms service's request guard: the shared guard (request id, body caps, unstorable text, every
// failure as an envelope) with the forms error table, the forms API's decode errors, and the routes
// whose bodies are not the API's JSON.
import { MAX_ASSET_BYTES, MAX_RESPONDENT_FILE_BYTES, OPERATION_SCOPES, type Operation } from "@folio/domain"
import { endpointRoute, requestGuard, routePattern } from "../shared/index.js"
import { FormsApi } from "./Api.js"
import { FormsErrors } from "./errors.js"
import { MAX_FORM_POST_BYTES } from "./page/submit.js"

/**
 * The operation of each keyed forms endpoint (group.endpoint), whose scopes the guard checks before
 * the body is read; the handlers run the same operation through `formsRoute` (route.ts).
 */
export const FORMS_ENDPOINT_OPERATIONS: Readonly<Record<string, Operation>> = {
  "forms.list": "listForms",
  "forms.create": "createForm",
  "forms.get": "getForm",
  "forms.patchDefinition": "updateDefinition",
  "forms.delete": "deleteForm",
  "forms.listVersions": "listVersions",
  "forms.getVersion": "getVersion",
  "forms.duplicate": "duplicateForm",
  "forms.publish": "publish",
  "forms.unpublish": "unpublish",
  "forms.setSlug": "setSlug",
  "forms.patchSettings": "updateSettings",
  "forms.uploadAsset": "uploadAsset",
  // A partial listing needs one scope more, which the handler checks once it has read the query.
  "forms.listResponses": "listResponses",
  "forms.responseSummary": "responseSummary",
  "forms.getResponse": "getResponse",
  "forms.exportCsv": "exportCsv",
  "forms.reports": "reports",
  "forms.insights": "insights",
  "forms.interviewAnalytics": "interviewAnalytics",
  "forms.downloadFile": "downloadFile",
  "meta.capabilities": "capabilities",
  "meta.usage": "usage"
}

const formsScopesOf = (group: string, endpoint: string) => {
  const operation = FORMS_ENDPOINT_OPERATIONS[`${group}.${endpoint}`]
  return operation === undefined ? undefined : OPERATION_SCOPES[operation]
}

/** The forms service's guard; the app's one global middleware picks it for the forms paths. */
export const formsRequestGuard = requestGuard({
  errors: FormsErrors,
  api: FormsApi,
  keyed: { service: "forms", scopesOf: formsScopesOf },
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
    // The withdrawal confirmation's post: a button, no fields worth more than a few bytes.
    { route: routePattern("/f/:slug/withdraw/:id/:mac"), body: "form", maxBytes: 4096 },
    // The MCP endpoint checks its own body (JSON-RPC errors) and its tools' arguments. Its path is
    // adapters-mcp's FORMS_MCP_PATH, which this package may not import (adapters import no adapter).
    { route: routePattern("/forms/mcp"), body: "own" }
  ]
})
