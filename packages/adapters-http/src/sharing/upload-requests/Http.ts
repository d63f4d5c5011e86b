// Handlers of the upload request routes: scope, the SharingUploadRequests use case, the views.
import {
  resourceView,
  SUBMISSIONS_PAGE,
  SharingIdempotency,
  SharingUploadRequests,
  type UploadRequestRecord,
  uploadRequestWithToken,
  UploadRequestWithToken,
  uploadRequestView,
  uploadSubmissionView
} from "@folio/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"

export const UploadRequestsLive = HttpApiBuilder.group(SharingApi, "uploadRequests", (handlers) =>
  Effect.gen(function* () {
    const requests = yield* SharingUploadRequests
    const idempotency = yield* SharingIdempotency
    const origin = yield* PublicOrigin
    const view = (r: UploadRequestRecord) =>
      Effect.map(Clock.currentTimeMillis, (ms) => uploadRequestView(r, new Date(ms)))
    const withToken = ({
      request,
      token
    }: {
      readonly request: UploadRequestRecord
      readonly token: string
    }) =>
      Effect.map(Clock.currentTimeMillis, (ms) =>
        uploadRequestWithToken(request, token, origin, new Date(ms))
      )
    return handlers
      .handle("list", () =>
        sharingRoute(
          "uploadRequests.list",
          Effect.gen(function* () {
            const all = yield* requests.list()
            return { items: yield* Effect.forEach(all, view) }
          })
        )
      )
      .handle("create", ({ payload, headers }) =>
        sharingRoute(
          "uploadRequests.create",
          optionallyIdempotent(
            headers["idempotency-key"],
            Effect.flatMap(requests.create(payload), withToken),
            (key) =>
              idempotency.run(key, { route: "upload-request", body: payload }, () =>
                Effect.flatMap(Effect.flatMap(requests.create(payload), withToken), (body) =>
                  answerAs(UploadRequestWithToken, 201, body)
                )
              )
          )
        )
      )
      .handle("get", ({ params }) =>
        sharingRoute("uploadRequests.get", Effect.flatMap(requests.get(params.id), view))
      )
      .handle("patch", ({ params, payload }) =>
        sharingRoute("uploadRequests.patch", Effect.flatMap(requests.patch(params.id, payload), view))
      )
      .handle("status", ({ params, payload }) =>
        sharingRoute(
          "uploadRequests.status",
          Effect.flatMap(requests.setStatus(params.id, payload.status), view)
        )
      )
      .handle("rotateToken", ({ params }) =>
        sharingRoute("uploadRequests.rotateToken", Effect.flatMap(requests.rotateToken(params.id), withToken))
      )
      .handle("revoke", ({ params }) =>
        sharingRoute("uploadRequests.revoke", Effect.flatMap(requests.revoke(params.id), view))
      )
      .handle("listSubmissions", ({ params, query }) =>
        sharingRoute(
          "uploadRequests.listSubmissions",
          Effect.gen(function* () {
            const limit = query.limit ?? SUBMISSIONS_PAGE.default
            const offset = query.offset ?? 0
            const page = yield* requests.listSubmissions(params.id, { limit, offset })
            return { items: page.items.map(uploadSubmissionView), total: page.total, limit, offset }
          })
        )
      )
      .handle("getSubmission", ({ params }) =>
        sharingRoute(
          "uploadRequests.getSubmission",
          Effect.gen(function* () {
            const { submission, files } = yield* requests.getSubmission(params.id, params.submissionId)
            return { ...uploadSubmissionView(submission), files: files.map((f) => resourceView(f, origin)) }
          })
        )
      )
      .handle("review", ({ params, payload }) =>
        sharingRoute(
          "uploadRequests.review",
          Effect.map(requests.review(params.id, params.submissionId, payload.review), uploadSubmissionView)
        )
      )
  })
)
