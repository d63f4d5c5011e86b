// sharing_upload_requests and sharing_upload_submissions: the owner's upload request routes (list,
// read, create, change, status, rotate the token, revoke) and their submissions (list, one, review),
// over the SharingUploadRequests use cases, each answer the REST route's body.
import {
  CreateUploadRequestInput,
  PatchUploadRequestInput,
  resourceView,
  SharingUploadRequests,
  SUBMISSIONS_PAGE,
  SubmissionReview,
  type UploadRequestRecord,
  UploadRequestStatus,
  UploadRequestView,
  UploadRequestWithToken,
  UploadSubmissionDetail,
  UploadSubmissionList,
  UploadSubmissionView,
  uploadRequestView,
  uploadRequestWithToken,
  uploadSubmissionView
} from "@folio/domain"
import { Clock, Effect, Schema } from "effect"
import { sharingTool } from "../../tool.js"
import { need } from "../shared.js"
import { asBody, Id, pick } from "./input.js"

const REQUEST_ACTIONS = ["list", "get", "create", "patch", "status", "rotate_token", "revoke"] as const
type RequestAction = (typeof REQUEST_ACTIONS)[number]

const REQUEST_OPERATION = {
  list: "uploadRequests.list",
  get: "uploadRequests.get",
  create: "uploadRequests.create",
  patch: "uploadRequests.patch",
  status: "uploadRequests.status",
  rotate_token: "uploadRequests.rotateToken",
  revoke: "uploadRequests.revoke"
} as const satisfies Record<RequestAction, string>

const UploadRequestsInput = Schema.Struct({
  action: Schema.Literals(REQUEST_ACTIONS).annotate({
    description:
      "list: every upload request, newest first; get: one (id); create: a new request (title; optional description, password, expires_at, status), its secret token and public url shown this once; patch: change the fields sent (id; an empty password or expires_at clears it); status: set open, paused or completed (id, status); rotate_token: a new token and url, the old link stops at once (id); revoke: shut it down for good (id)"
  }),
  id: Schema.optionalKey(Id),
  // PATCH's fields (a superset of what create takes); create's own rules are checked on its body.
  ...PatchUploadRequestInput.fields,
  status: Schema.optionalKey(UploadRequestStatus)
})

const UploadRequestsOutput = Schema.Struct({
  action: Schema.Literals(REQUEST_ACTIONS),
  /** list: `GET /upload-requests`'s body. */
  upload_requests: Schema.optionalKey(Schema.Struct({ items: Schema.Array(UploadRequestView) })),
  /** The request as its route answers it: with token and url after create and rotate_token. */
  upload_request: Schema.optionalKey(Schema.Union([UploadRequestWithToken, UploadRequestView]))
})

const CREATE_FIELDS = ["title", "description", "password", "expires_at", "status"] as const
const PATCH_FIELDS = ["title", "description", "password", "expires_at"] as const

export const uploadRequestsTool = sharingTool({
  name: "sharing_upload_requests",
  title: "Upload requests",
  description:
    "Upload requests: private links through which people without an account send you files. action=list, get (id), create (title; optional description, password, expires_at, status open|paused|completed): the only answer that shows the secret token and the url to give the senders; patch (id and the fields to change), status (id, status), rotate_token (id; a new token and url, the old link stops), revoke (id; for good). Submissions are read and reviewed with sharing_upload_submissions.",
  operations: Object.values(REQUEST_OPERATION),
  operationsOf: (input) => [REQUEST_OPERATION[input.action]],
  input: UploadRequestsInput,
  output: UploadRequestsOutput,
  run: (input, { publicOrigin }) =>
    Effect.gen(function* () {
      const requests = yield* SharingUploadRequests
      const now = new Date(yield* Clock.currentTimeMillis)
      const one = (r: UploadRequestRecord) => ({
        action: input.action,
        upload_request: uploadRequestView(r, now)
      })
      const shown = (made: { readonly request: UploadRequestRecord; readonly token: string }) => ({
        action: input.action,
        upload_request: uploadRequestWithToken(made.request, made.token, publicOrigin, now)
      })
      if (input.action === "list") {
        const all = yield* requests.list()
        return { action: input.action, upload_requests: { items: all.map((r) => uploadRequestView(r, now)) } }
      }
      if (input.action === "create") {
        const body = yield* asBody(CreateUploadRequestInput, input.action)(pick(input, CREATE_FIELDS))
        return shown(yield* requests.create(body))
      }
      yield* need(input, input.action, input.action === "status" ? ["id", "status"] : ["id"])
      const id = input.id ?? ""
      switch (input.action) {
        case "get":
          return one(yield* requests.get(id))
        case "patch":
          return one(yield* requests.patch(id, pick(input, PATCH_FIELDS)))
        case "status":
          return one(yield* requests.setStatus(id, input.status ?? "open"))
        case "rotate_token":
          return shown(yield* requests.rotateToken(id))
        case "revoke":
          return one(yield* requests.revoke(id))
      }
    })
})

const SUBMISSION_ACTIONS = ["list", "get", "review"] as const
type SubmissionAction = (typeof SUBMISSION_ACTIONS)[number]

const SUBMISSION_OPERATION = {
  list: "uploadRequests.listSubmissions",
  get: "uploadRequests.getSubmission",
  review: "uploadRequests.review"
} as const satisfies Record<SubmissionAction, string>

const SubmissionsInput = Schema.Struct({
  action: Schema.Literals(SUBMISSION_ACTIONS).annotate({
    description:
      "list: an upload request's submissions, newest first (id; limit, offset); get: one submission with the file resources it created (id, submission_id); review: set its review (id, submission_id, review)"
  }),
  id: Id.annotate({ description: "the upload request's id" }),
  submission_id: Schema.optionalKey(Id),
  review: Schema.optionalKey(SubmissionReview),
  limit: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: SUBMISSIONS_PAGE.max }))
  ),
  offset: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })))
})

const SubmissionsOutput = Schema.Struct({
  action: Schema.Literals(SUBMISSION_ACTIONS),
  /** list: `GET /upload-requests/{id}/submissions`'s body. */
  submissions: Schema.optionalKey(UploadSubmissionList),
  /** get: the submission and its files; review: the submission as `PATCH` answers it. */
  submission: Schema.optionalKey(Schema.Union([UploadSubmissionDetail, UploadSubmissionView]))
})

export const uploadSubmissionsTool = sharingTool({
  name: "sharing_upload_submissions",
  title: "Upload request submissions",
  description:
    "What people sent through an upload request (id = the request's id). action=list pages its submissions, newest first (limit, offset; answers total); get (submission_id) answers one with the file resources it created (their ids work with the other sharing tools); review (submission_id, review: unreviewed|accepted|needs_changes|rejected) records the review.",
  operations: Object.values(SUBMISSION_OPERATION),
  operationsOf: (input) => [SUBMISSION_OPERATION[input.action]],
  input: SubmissionsInput,
  output: SubmissionsOutput,
  run: (input, { publicOrigin }) =>
    Effect.gen(function* () {
      const requests = yield* SharingUploadRequests
      switch (input.action) {
        case "list": {
          const limit = input.limit ?? SUBMISSIONS_PAGE.default
          const offset = input.offset ?? 0
          const page = yield* requests.listSubmissions(input.id, { limit, offset })
          return {
            action: input.action,
            submissions: { items: page.items.map(uploadSubmissionView), total: page.total, limit, offset }
          }
        }
        case "get": {
          yield* need(input, input.action, ["submission_id"])
          const { submission, files } = yield* requests.getSubmission(input.id, input.submission_id ?? "")
          return {
            action: input.action,
            submission: {
              ...uploadSubmissionView(submission),
              files: files.map((f) => resourceView(f, publicOrigin))
            }
          }
        }
        case "review": {
          yield* need(input, input.action, ["submission_id", "review"])
          const reviewed = yield* requests.review(
            input.id,
            input.submission_id ?? "",
            input.review ?? "unreviewed"
          )
          return { action: input.action, submission: uploadSubmissionView(reviewed) }
        }
      }
    })
})
