// Handlers of the forms group: check the operation's scopes, run the domain use case, encode the
// view. Every failure becomes its REST error through the forms error table.
import {
  FormAuthoring,
  FormResponses,
  fileDownloadRoute,
  toFormSummaryView,
  StoredFormDocumentReader,
  toFormView,
  toVersionSummaryView,
  toVersionView
} from "@folio/domain"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { RequestInvalid } from "../../shared/index.js"
import { csvDownload } from "../../streaming.js"
import { FormsApi } from "../Api.js"
import { data, dataWithWarnings } from "../envelope.js"
import { requireEmptyBody } from "../empty-body.js"
import { formsRoute } from "../route.js"

export const FormsLive = HttpApiBuilder.group(FormsApi, "forms", (handlers) =>
  Effect.gen(function* () {
    const fileUrl = fileDownloadRoute(yield* PublicOrigin)
    // Views re-check stored documents through the deployment's reader (a bounded cache in the app).
    const documents = yield* StoredFormDocumentReader
    const forms = yield* FormAuthoring
    const responses = yield* FormResponses
    return handlers
      .handle("list", ({ query }) =>
        formsRoute(
          "listForms",
          Effect.map(
            forms.list({
              limit: query.limit,
              cursor: query.cursor,
              search: query.search,
              kind: query.kind,
              status: query.status
            }),
            (page) => data({ items: page.items.map(toFormSummaryView), nextCursor: page.nextCursor })
          )
        )
      )
      .handle("create", ({ payload }) =>
        formsRoute(
          "createForm",
          Effect.map(forms.create(payload), (f) => data(toFormView(f, documents)))
        )
      )
      .handle("get", ({ params }) =>
        formsRoute(
          "getForm",
          Effect.map(forms.get(params.id), (f) => data(toFormView(f, documents)))
        )
      )
      .handle("patchDefinition", ({ params, payload }) =>
        formsRoute(
          "updateDefinition",
          Effect.flatMap(forms.patchDefinition(params.id, payload), (f) =>
            Effect.map(forms.warnings(f), (warnings) => dataWithWarnings(toFormView(f, documents), warnings))
          )
        )
      )
      .handle("delete", ({ params }) => formsRoute("deleteForm", forms.delete(params.id)))
      .handle("listVersions", ({ params, query }) =>
        formsRoute(
          "listVersions",
          Effect.map(forms.listVersions(params.id, { limit: query.limit, cursor: query.cursor }), (page) =>
            data({ items: page.items.map(toVersionSummaryView), nextCursor: page.nextCursor })
          )
        )
      )
      .handle("getVersion", ({ params }) =>
        formsRoute(
          "getVersion",
          Effect.map(forms.getVersion(params.id, params.versionId), (v) => data(toVersionView(v, documents)))
        )
      )
      .handle("duplicate", ({ params }) =>
        formsRoute(
          "duplicateForm",
          Effect.andThen(
            requireEmptyBody,
            Effect.map(forms.duplicate(params.id), (f) => data(toFormView(f, documents)))
          )
        )
      )
      .handle("publish", ({ params, payload }) =>
        formsRoute(
          "publish",
          Effect.map(forms.publish(params.id, payload), (f) => data(toFormView(f, documents)))
        )
      )
      .handle("unpublish", ({ params, payload }) =>
        formsRoute(
          "unpublish",
          Effect.map(forms.unpublish(params.id, payload), (f) => data(toFormView(f, documents)))
        )
      )
      .handle("setSlug", ({ params, payload }) =>
        formsRoute(
          "setSlug",
          Effect.map(forms.setSlug(params.id, payload.slug), (f) => data(toFormView(f, documents)))
        )
      )
      .handle("patchSettings", ({ params, payload }) =>
        formsRoute(
          "updateSettings",
          Effect.flatMap(forms.patchSettings(params.id, payload), (f) =>
            Effect.map(forms.warnings(f), (warnings) => dataWithWarnings(toFormView(f, documents), warnings))
          )
        )
      )
      .handle("listResponses", ({ params, query }) =>
        formsRoute(
          query.status === "partial" ? "listPartialResponses" : "listResponses",
          Effect.map(
            responses.list(
              params.id,
              {
                limit: query.limit,
                cursor: query.cursor,
                status: query.status,
                flagged: query.flagged === undefined ? undefined : query.flagged === "true"
              },
              { projection: query.projection, fileUrl }
            ),
            data
          )
        )
      )
      .handle("responseSummary", ({ params }) =>
        formsRoute("responseSummary", Effect.map(responses.summary(params.id), data))
      )
      .handle("getResponse", ({ params }) =>
        formsRoute(
          "getResponse",
          Effect.map(responses.get(params.id, params.responseId, { fileUrl, partials: "scoped" }), data)
        )
      )
      .handle("uploadAsset", ({ params }) =>
        formsRoute(
          "uploadAsset",
          Effect.gen(function* () {
            const request = yield* HttpServerRequest.HttpServerRequest
            const body = yield* request.arrayBuffer.pipe(
              Effect.mapError(() => new RequestInvalid({ message: "the request body could not be read" }))
            )
            return data(yield* forms.uploadAsset(params.id, new Uint8Array(body)))
          })
        )
      )
      .handle("exportCsv", ({ params, query }) =>
        formsRoute(
          "exportCsv",
          Effect.gen(function* () {
            const csv = yield* responses.exportCsv(
              params.id,
              {
                values: query.values ?? "label",
                layout: query.layout ?? "wide",
                deidentified: query.deidentified === "true"
              },
              fileUrl
            )
            // Failures after the first byte cannot become an envelope any more: the connection is
            // cut without the final chunk, so the client sees a failed download, not a short file.
            return yield* csvDownload(
              csv.lines,
              csv.filename,
              yield* HttpServerRequest.HttpServerRequest,
              "csv export"
            )
          })
        )
      )
      .handle("reports", ({ params, query }) =>
        formsRoute("reports", Effect.map(responses.report(params.id, query), data))
      )
      .handle("insights", ({ params }) =>
        formsRoute("insights", Effect.map(responses.insights(params.id), data))
      )
      .handle("interviewAnalytics", ({ params }) =>
        formsRoute("interviewAnalytics", Effect.map(responses.interviewAnalytics(params.id), data))
      )
      .handle("downloadFile", ({ params }) =>
        formsRoute(
          "downloadFile",
          Effect.map(responses.fileDownloadUrl(params.id, params.fileId), (url) =>
            HttpServerResponse.empty({ status: 302, headers: { location: url, "cache-control": "no-store" } })
          )
        )
      )
  })
)
