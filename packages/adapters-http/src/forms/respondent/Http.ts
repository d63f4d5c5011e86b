// Handlers of the public respondent routes.
import { encodeFormDefinition, publicSettings, Respondent, type ResponseRecord } from "@folio/domain"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { RequestInvalid } from "../../shared/index.js"
import { FormsApi } from "../Api.js"
import { data } from "../envelope.js"
import { requireEmptyBody } from "../empty-body.js"
import { FormsErrors } from "../errors.js"
import { respondentClient, setContinuityCookie } from "./continuity.js"

/** What the request tells of the browser: its continuity cookie, if any, and its address and agent. */
const view = (r: ResponseRecord) => ({
  responseId: r.id,
  status: r.status,
  answers: r.answers,
  completedAt: r.completedAt
})

export const RespondentLive = HttpApiBuilder.group(FormsApi, "respondent", (handlers) =>
  Effect.map(Effect.service(Respondent), (respondent) =>
    handlers
      .handle("form", ({ params }) =>
        Effect.gen(function* () {
          const { published, closed: reason } = yield* respondent.publicForm(params.slug)
          return data({
            formId: published.form.id,
            formVersionId: published.version.id,
            version: published.version.version,
            title: published.form.title,
            definition: encodeFormDefinition(published.definition),
            settings: publicSettings(published.settings),
            closed:
              reason === undefined
                ? null
                : { reason, message: published.settings.submission.closedMessage ?? null }
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("start", ({ params, payload }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const started = yield* respondent.start(
            params.slug,
            payload.params ?? {},
            respondentClient(request, payload.confirmRepeat)
          )
          yield* setContinuityCookie(started.continuityToken)
          return data({
            responseId: started.response.id,
            formVersionId: started.response.formVersionId,
            token: started.token,
            presentation: started.presentation,
            respondent: started.respondent,
            repeatWarning: started.repeatWarning
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("resume", ({ params }) =>
        Effect.gen(function* () {
          yield* requireEmptyBody
          const request = yield* HttpServerRequest.HttpServerRequest
          const resumed = yield* respondent.resume(params.slug, respondentClient(request))
          yield* setContinuityCookie(resumed.continuityToken)
          return data({
            responseId: resumed.response.id,
            formVersionId: resumed.response.formVersionId,
            token: resumed.token,
            presentation: resumed.presentation,
            respondent: resumed.respondent,
            repeatWarning: false,
            answers: resumed.response.answers
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("upload", ({ params, query, headers }) =>
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = yield* request.arrayBuffer.pipe(
            Effect.mapError(() => new RequestInvalid({ message: "the request body could not be read" }))
          )
          const file = yield* respondent.uploadFile(
            params.slug,
            params.responseId,
            headers["x-response-token"],
            {
              blockId: query.blockId,
              filename: query.filename ?? "upload",
              claimedType: request.headers["content-type"] ?? "",
              bytes: new Uint8Array(body)
            }
          )
          return data({
            key: file.key,
            id: file.id,
            filename: file.filename,
            contentType: file.contentType,
            size: file.size
          })
        }).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("save", ({ params, payload }) =>
        Effect.map(
          respondent.save(params.slug, params.responseId, payload.token, payload.answers, false),
          (r) => data(view(r))
        ).pipe(Effect.catch(FormsErrors.fail))
      )
      .handle("complete", ({ params, payload }) =>
        Effect.map(
          respondent.save(params.slug, params.responseId, payload.token, payload.answers ?? {}, true),
          (r) => data(view(r))
        ).pipe(Effect.catch(FormsErrors.fail))
      )
  )
)
