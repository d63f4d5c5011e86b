// The sharing service's request guard: the shared guard (request id, body caps, unstorable text,
// every failure as an envelope) with the sharing error table and the sharing API's decode errors.
import { MAX_SUBMISSION_FILES, sharingOperationScopes } from "@folio/domain"
import { endpointRoute, requestGuard, routePattern } from "../shared/index.js"
import { SharingApi } from "./Api.js"
import { SharingErrors } from "./errors.js"
import { MAX_FORM_POST_BYTES } from "./public/bio.js"

/** The paths the sharing service answers: its API and its public pages. */
export const SHARING_PATH_PREFIXES = ["/share/", "/s/", "/u/"] as const

/**
 * The public pages read their own input: a password form post (urlencoded, a few bytes) and a path
 * whose slug they check against the slug rule, answering a page (never the JSON envelope).
 */
const PUBLIC_PAGE = /^\/s\/[^/?#]*(?:[?#]|$)/

/** A visitor form of a bio page posts here (urlencoded, small); its route reads and checks it. */
const BIO_FORM = /^\/s\/[^/?#]+\/forms\/[^/?#]+(?:[?#]|$)/

const IMPORT = /^\/share\/api\/v1\/resources\/import(?:[?#]|$)/

/** What a multipart upload may hold beyond its file: the boundaries, part headers and text fields. */
export const UPLOAD_ENVELOPE_BYTES = 64 * 1024

/** What a site body may hold beyond its files: 500 part headers and the metadata JSON. */
export const ARTIFACT_ENVELOPE_BYTES = 1024 * 1024

/** The sharing guard for a server whose uploads may be `uploadMaxBytes` large. */
export const sharingRequestGuard = (uploadMaxBytes: number, artifactMaxBytes: number) =>
  requestGuard({
    errors: SharingErrors,
    api: SharingApi,
    // The spec's not_found is "nothing with that slug or id": a malformed one names nothing either.
    malformedPathParam: "notFound",
    keyed: {
      service: "sharing",
      scopesOf: (group, endpoint) => sharingOperationScopes(`${group}.${endpoint}`)
    },
    rawBodies: [
      { route: PUBLIC_PAGE, body: "own" },
      // The MCP endpoint checks its own body (JSON-RPC errors) and its tools' arguments (its path is
      // adapters-mcp's SHARING_MCP_PATH, which this package may not import).
      { route: routePattern("/share/mcp"), body: "own" },
      { route: BIO_FORM, body: "form", maxBytes: MAX_FORM_POST_BYTES },
      // The import takes a CSV export as JSON or as the file itself.
      { route: IMPORT, body: "text", textTypes: ["text/csv"] },
      // Uploads stream to the blob store as they arrive; the file's own limit is checked as it is written.
      ...[
        ["files", "upload"],
        ["bio", "setAvatar"],
        ["bio", "setCover"],
        ["bio", "addFileBlock"],
        ["bio", "replaceBlockFile"],
        ["bio", "setBlockThumbnail"]
      ].map(([group = "", endpoint = ""]) => ({
        route: endpointRoute(SharingApi, group, endpoint),
        body: "stream" as const,
        maxBytes: uploadMaxBytes + UPLOAD_ENVELOPE_BYTES
      })),
      // An upload request's public page takes several files in one body.
      {
        route: /^\/u\/[^/?#]+(?:[?#]|$)/,
        body: "stream" as const,
        maxBytes: MAX_SUBMISSION_FILES * uploadMaxBytes + UPLOAD_ENVELOPE_BYTES
      },
      // A site in one body: every file (or the ZIP), their part headers and the metadata.
      ...[
        ["artifacts", "create"],
        ["artifacts", "deploy"]
      ].map(([group = "", endpoint = ""]) => ({
        route: endpointRoute(SharingApi, group, endpoint),
        body: "stream" as const,
        maxBytes: artifactMaxBytes + ARTIFACT_ENVELOPE_BYTES
      }))
    ]
  })
