// Handlers of the forms group: check the operation's scopes, run the domain use case, encode the
// view. Domain errors become the envelope through fromDomainError.
import { HttpApiBuilder, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import {
  exportResponsesCsv,
  fileDownloadUrl,
  formInsights,
  formReport,
  interviewAnalytics,
  fileDownloadRoute,
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
  toFormSummaryView,
  toFormView,
  toVersionSummaryView,
  toVersionView,
  unpublishForm,
  uploadAsset
} from "@folio/domain"
import { Effect, Stream } from "effect"
import { FormsApi } from "../api.js"
import { requireScopes } from "../auth.js"
import { data } from "../envelope.js"
import { cutOnFailure } from "../streaming.js"
import { type AuthoringError, fromDomainError, invalid, isApiError } from "../errors.js"
import { PublicOrigin } from "../public-origin.js"
import { requireEmptyBody } from "./empty-body.js"

const encoder = new TextEncoder()

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
  Effect.map(PublicOrigin, (origin) => {
    const fileUrl = fileDownloadRoute(origin)
    return handlers
      .handle("list", ({ urlParams }) =>
        guarded(
          "listForms",
          Effect.map(
            listForms({
              limit: urlParams.limit,
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
          Effect.map(listVersions(path.id, { limit: urlParams.limit, cursor: urlParams.cursor }), (page) =>
            data({ items: page.items.map(toVersionSummaryView), nextCursor: page.nextCursor })
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
          Effect.zipRight(
            requireEmptyBody,
            Effect.map(duplicateFormUseCase(path.id), (f) => data(toFormView(f)))
          )
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
            listResponses(
              path.id,
              {
                limit: urlParams.limit,
                cursor: urlParams.cursor,
                status: urlParams.status
              },
              { projection: urlParams.projection, fileUrl }
            ),
            data
          )
        )
      )
      .handle("responseSummary", ({ path }) =>
        guarded("responseSummary", Effect.map(responseSummary(path.id), data))
      )
      .handle("getResponse", ({ path }) =>
        guarded(
          "getResponse",
          Effect.map(getResponse(path.id, path.responseId, { fileUrl, partials: "scoped" }), data)
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
      .handle("exportCsv", ({ path, urlParams }) =>
        guarded(
          "exportCsv",
          Effect.gen(function* () {
            const csv = yield* exportResponsesCsv(
              path.id,
              {
                values: urlParams.values ?? "label",
                layout: urlParams.layout ?? "wide",
                deidentified: urlParams.deidentified === "true"
              },
              fileUrl
            )
            const context = yield* Effect.context<never>()
            // Failures after the first byte cannot become an envelope any more: the connection is
            // cut without the final chunk, so the client sees a failed download, not a short file.
            const body = yield* cutOnFailure(
              csv.lines.pipe(
                Stream.map((line) => encoder.encode(line)),
                Stream.provideContext(context as never)
              ),
              yield* HttpServerRequest.HttpServerRequest,
              "csv export"
            )
            return HttpServerResponse.stream(body as Stream.Stream<Uint8Array>, {
              contentType: "text/csv; charset=utf-8",
              headers: {
                "content-disposition": `attachment; filename="${csv.filename}"`,
                "cache-control": "no-store"
              }
            })
          })
        )
      )
      .handle("reports", ({ path, urlParams }) =>
        guarded("reports", Effect.map(formReport(path.id, urlParams), data))
      )
      .handle("insights", ({ path }) => guarded("insights", Effect.map(formInsights(path.id), data)))
      .handle("interviewAnalytics", ({ path }) =>
        guarded("interviewAnalytics", Effect.map(interviewAnalytics(path.id), data))
      )
      .handle("downloadFile", ({ path }) =>
        guarded(
          "downloadFile",
          Effect.map(fileDownloadUrl(path.id, path.fileId), (url) =>
            HttpServerResponse.empty({ status: 302, headers: { location: url, "cache-control": "no-store" } })
          )
        )
      )
  })
)
