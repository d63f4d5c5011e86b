// Handlers of the forms group: check the operation's scopes, run the domain use case, encode the
// view. Domain errors become the envelope through fromDomainError.
import { HttpApiBuilder, HttpServerRequest } from "@effect/platform"
import {
  createFormUseCase,
  type DomainError,
  deleteForm,
  duplicateFormUseCase,
  getResponse,
  getVersion,
  listResponses,
  listForms,
  listVersions,
  loadForm,
  OPERATION_SCOPES,
  type Principal,
  type Operation,
  patchDefinition,
  patchSettings,
  publishForm,
  responseSummary,
  setFormSlug,
  toCompactView,
  toFormSummaryView,
  toFullView,
  toFormView,
  toVersionSummaryView,
  toVersionView,
  unpublishForm,
  uploadAsset
} from "@folio/domain"
import { Effect } from "effect"
import { FormsApi } from "../api.js"
import { requireScopes } from "../auth.js"
import { data } from "../envelope.js"
import { type AuthoringError, fromDomainError, invalid, isApiError } from "../errors.js"

const toApiError = (e: DomainError | AuthoringError): Effect.Effect<never, AuthoringError> =>
  isApiError(e)
    ? Effect.fail(e as AuthoringError)
    : Effect.zipRight(
        e._tag === "StorageError" ? Effect.logError("storage failure", e) : Effect.void,
        Effect.fail(fromDomainError(e))
      )

/** Scope check, then the use case, with every failure as an envelope error. */
const guarded = <A, E extends DomainError | AuthoringError, R>(
  operation: Operation,
  effect: Effect.Effect<A, E, R>
): Effect.Effect<A, AuthoringError, R | Principal> =>
  Effect.zipRight(requireScopes(...OPERATION_SCOPES[operation]), effect).pipe(
    Effect.catchAll((e: E | AuthoringError) => toApiError(e))
  )

export const FormsLive = HttpApiBuilder.group(FormsApi, "forms", (handlers) =>
  handlers
    .handle("list", ({ urlParams }) =>
      guarded(
        "listForms",
        Effect.map(
          listForms({
            limit: urlParams.limit ?? 20,
            cursor: urlParams.cursor,
            search: urlParams.search,
            kind: urlParams.kind,
            status: urlParams.status
          }),
          (page) => data({ items: page.items.map(toFormSummaryView), nextCursor: page.nextCursor })
        )
      )
    )
    .handle("create", ({ payload }) =>
      guarded(
        "createForm",
        Effect.map(createFormUseCase(payload), (f) => data(toFormView(f)))
      )
    )
    .handle("get", ({ path }) =>
      guarded(
        "getForm",
        Effect.map(loadForm(path.id), (f) => data(toFormView(f)))
      )
    )
    .handle("patchDefinition", ({ path, payload }) =>
      guarded(
        "updateDefinition",
        Effect.map(patchDefinition(path.id, payload), (f) => data(toFormView(f)))
      )
    )
    .handle("delete", ({ path }) => guarded("deleteForm", deleteForm(path.id)))
    .handle("listVersions", ({ path, urlParams }) =>
      guarded(
        "listVersions",
        Effect.map(
          listVersions(path.id, { limit: urlParams.limit ?? 20, cursor: urlParams.cursor }),
          (page) => data({ items: page.items.map(toVersionSummaryView), nextCursor: page.nextCursor })
        )
      )
    )
    .handle("getVersion", ({ path }) =>
      guarded(
        "getVersion",
        Effect.map(getVersion(path.id, path.versionId), (v) => data(toVersionView(v)))
      )
    )
    .handle("duplicate", ({ path }) =>
      guarded(
        "duplicateForm",
        Effect.map(duplicateFormUseCase(path.id), (f) => data(toFormView(f)))
      )
    )
    .handle("publish", ({ path, payload }) =>
      guarded(
        "publish",
        Effect.map(publishForm(path.id, payload), (f) => data(toFormView(f)))
      )
    )
    .handle("unpublish", ({ path, payload }) =>
      guarded(
        "unpublish",
        Effect.map(unpublishForm(path.id, payload), (f) => data(toFormView(f)))
      )
    )
    .handle("setSlug", ({ path, payload }) =>
      guarded(
        "setSlug",
        Effect.map(setFormSlug(path.id, payload.slug), (f) => data(toFormView(f)))
      )
    )
    .handle("patchSettings", ({ path, payload }) =>
      guarded(
        "updateSettings",
        Effect.map(patchSettings(path.id, payload), (f) => data(toFormView(f)))
      )
    )
    .handle("listResponses", ({ path, urlParams }) =>
      guarded(
        urlParams.status === "partial" ? "listPartialResponses" : "listResponses",
        Effect.map(
          listResponses(path.id, {
            limit: urlParams.limit ?? 50,
            cursor: urlParams.cursor,
            status: urlParams.status
          }),
          (page) =>
            data({
              items: page.items.map((r) =>
                urlParams.projection === "full" ? toFullView(r, false) : toCompactView(r)
              ),
              nextCursor: page.nextCursor
            })
        )
      )
    )
    .handle("responseSummary", ({ path }) =>
      guarded("responseSummary", Effect.map(responseSummary(path.id), data))
    )
    .handle("getResponse", ({ path }) =>
      guarded(
        "getResponse",
        Effect.map(getResponse(path.id, path.responseId), (r) => data(toFullView(r, true)))
      )
    )
    .handle("uploadAsset", ({ path }) =>
      guarded(
        "uploadAsset",
        Effect.gen(function* () {
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = yield* request.arrayBuffer.pipe(
            Effect.mapError(() => invalid("the request body could not be read"))
          )
          return data(yield* uploadAsset(path.id, new Uint8Array(body)))
        })
      )
    )
)
