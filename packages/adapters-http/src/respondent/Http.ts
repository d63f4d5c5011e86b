// Handlers of the public respondent routes.
import { HttpApiBuilder } from "@effect/platform"
import {
  closedReason,
  type DomainError,
  encodeFormDefinition,
  type FormClosed,
  loadPublishedForm,
  publicSettings,
  type ResponseRecord,
  ResponseRepository,
  saveAnswers,
  startResponse
} from "@folio/domain"
import { Clock, Effect } from "effect"
import { FormsApi } from "../api.js"
import { data } from "../envelope.js"
import { type ApiError, ClosedError, fromDomainError } from "../errors.js"

const toError = (e: DomainError | FormClosed): Effect.Effect<never, ApiError> =>
  e._tag === "FormClosed"
    ? Effect.fail(
        new ClosedError({
          ok: false,
          error: {
            code: "closed",
            message: e.message ?? "this form is not accepting responses",
            details: { reason: e.reason }
          }
        })
      )
    : Effect.zipRight(
        e._tag === "StorageError" ? Effect.logError("storage failure", e) : Effect.void,
        Effect.fail(fromDomainError(e))
      )

const view = (r: ResponseRecord) => ({
  responseId: r.id,
  status: r.status,
  answers: r.answers,
  completedAt: r.completedAt
})

export const RespondentLive = HttpApiBuilder.group(FormsApi, "respondent", (handlers) =>
  handlers
    .handle("form", ({ path }) =>
      Effect.gen(function* () {
        const published = yield* loadPublishedForm(path.slug)
        const completed = yield* Effect.flatMap(ResponseRepository, (r) =>
          r.count(published.form.workspaceId, published.form.id, "completed")
        )
        const now = new Date(yield* Clock.currentTimeMillis)
        const reason = closedReason(published.settings, completed, now)
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
      }).pipe(Effect.catchAll(toError))
    )
    .handle("start", ({ path, payload }) =>
      Effect.map(startResponse(path.slug, payload.params ?? {}), (started) =>
        data({
          responseId: started.response.id,
          formVersionId: started.response.formVersionId,
          token: started.token,
          presentation: started.presentation
        })
      ).pipe(Effect.catchAll(toError))
    )
    .handle("save", ({ path, payload }) =>
      Effect.map(saveAnswers(path.slug, path.responseId, payload.token, payload.answers, false), (r) =>
        data(view(r))
      ).pipe(Effect.catchAll(toError))
    )
    .handle("complete", ({ path, payload }) =>
      Effect.map(saveAnswers(path.slug, path.responseId, payload.token, payload.answers ?? {}, true), (r) =>
        data(view(r))
      ).pipe(Effect.catchAll(toError))
    )
)
