// Upload requests on the wire beyond the request itself: the answer that carries the secret token
// (creation, rotation), and the submissions' page and detail. REST and the sharing MCP tools share them.
import { Schema } from "effect"
import { ResourceView } from "../resources/wire.js"
import {
  type UploadRequestRecord,
  UploadRequestView,
  UploadSubmissionView,
  uploadRequestUrl,
  uploadRequestView
} from "./upload-request.js"

/** A request with its secret token and public link: answered only at creation and rotation. */
export const UploadRequestWithToken = Schema.Struct({
  ...UploadRequestView.fields,
  /** The secret: shown this once; only its hash is kept. */
  token: Schema.String,
  /** The public page senders open. */
  url: Schema.String
}).annotate({ identifier: "UploadRequestWithToken" })

/** A request just created or rotated, with its token and the public link built on `publicOrigin`. */
export const uploadRequestWithToken = (
  request: UploadRequestRecord,
  token: string,
  publicOrigin: string,
  now: Date
): typeof UploadRequestWithToken.Type => ({
  ...uploadRequestView(request, now),
  token,
  url: uploadRequestUrl(publicOrigin, token)
})

export const UploadSubmissionList = Schema.Struct({
  items: Schema.Array(UploadSubmissionView),
  total: Schema.Int,
  limit: Schema.Int,
  offset: Schema.Int
}).annotate({ identifier: "UploadSubmissionList" })

export const UploadSubmissionDetail = Schema.Struct({
  ...UploadSubmissionView.fields,
  /** The file resources the submission created (deleted ones are left out). */
  files: Schema.Array(ResourceView)
}).annotate({ identifier: "UploadSubmissionDetail" })

export const SUBMISSIONS_PAGE = { default: 50, max: 200 } as const
