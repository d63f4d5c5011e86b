// Handlers of the upload request routes: scope, the SharingUploadRequests use case, the views.
import {
  resourceView,
  SharingIdempotency,
  SharingUploadRequests,
  type UploadRequestRecord,
  uploadRequestUrl,
  uploadRequestView,
  uploadSubmissionView
} from "@folio/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { requireScopes } from "../../shared/index.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"
import { SUBMISSIONS_PAGE, UploadRequestWithToken } from "./Api.js"

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
    }) => Effect.map(view(request), (v) => ({ ...v, token, url: uploadRequestUrl(origin, token) }))
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const all = yield* requests.list()
          return { items: yield* Effect.forEach(all, view) }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("create", ({ payload, headers }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* optionallyIdempotent(
            headers["idempotency-key"],
            Effect.flatMap(requests.create(payload), withToken),
            (key) =>
              idempotency.run(key, { route: "upload-request", body: payload }, () =>
                Effect.flatMap(Effect.flatMap(requests.create(payload), withToken), (body) =>
                  answerAs(UploadRequestWithToken, 201, body)
                )
              )
          )
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          return yield* view(yield* requests.get(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("patch", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* view(yield* requests.patch(params.id, payload))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("status", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* view(yield* requests.setStatus(params.id, payload.status))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("rotateToken", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* withToken(yield* requests.rotateToken(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("revoke", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("delete")
          return yield* view(yield* requests.revoke(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("listSubmissions", ({ params, query }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const limit = query.limit ?? SUBMISSIONS_PAGE.default
          const offset = query.offset ?? 0
          const page = yield* requests.listSubmissions(params.id, { limit, offset })
          return { items: page.items.map(uploadSubmissionView), total: page.total, limit, offset }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("getSubmission", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const { submission, files } = yield* requests.getSubmission(params.id, params.submissionId)
          return { ...uploadSubmissionView(submission), files: files.map((f) => resourceView(f, origin)) }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("review", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return uploadSubmissionView(yield* requests.review(params.id, params.submissionId, payload.review))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
  })
)
