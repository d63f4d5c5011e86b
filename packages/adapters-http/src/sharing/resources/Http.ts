// Handlers of the resource routes: scope, then the SharingResources use case, then the view.
import {
  collectionEtag,
  importRows,
  type ItemOutcome,
  type MarkdownVersionSummary,
  publicResourceUrl,
  type ResourceRecord,
  resourceEtag,
  ResourceView,
  resourceView,
  SharingIdempotency,
  SharingResources
} from "@folio/domain"
import { Clock, Effect, Result } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"
import { resourceIfMatchOf } from "../etag-headers.js"
import { answerAs, idempotentResponse, optionallyIdempotent } from "../idempotent.js"
import { qrCode } from "../qr.js"
import { type VisitDescription, visitFromDescription } from "../visit.js"
import { BulkCreateResult, ImportResult, RESOURCE_PAGE_SIZE } from "./Api.js"
import { readCsvRecords } from "./import-csv.js"

/** The visitor a simulation stands for when its description names none: one fixed id, so a dry run repeats. */
export const SIMULATION_VISITOR_ID = "simulation"

const versionSummary = (v: MarkdownVersionSummary) => ({
  id: v.id,
  number: v.number,
  size: v.size,
  created_at: v.createdAt.toISOString()
})

const visitOf = (description: VisitDescription | undefined) =>
  Effect.map(Clock.currentTimeMillis, (ms) =>
    visitFromDescription(description ?? {}, { now: new Date(ms), visitorId: SIMULATION_VISITOR_ID })
  )

export const ResourcesLive = HttpApiBuilder.group(SharingApi, "resources", (handlers) =>
  Effect.gen(function* () {
    const resources = yield* SharingResources
    const origin = yield* PublicOrigin
    const etagHeaders = (record: ResourceRecord) => ({
      "x-resource-etag": resourceEtag(record),
      ...(record.type === "collection" ? { "x-collection-etag": collectionEtag(record) } : {})
    })
    const withEtag = (record: ResourceRecord) =>
      HttpApiSchema.withHeaders({ body: resourceView(record, origin), headers: etagHeaders(record) })
    const idempotency = yield* SharingIdempotency
    /** One item's outcome on the wire: the resource, or the envelope it alone failed with. */
    const outcomeOf = (outcome: ItemOutcome) =>
      outcome._tag === "Created"
        ? { status: "created" as const, resource: resourceView(outcome.resource, origin) }
        : {
            status: "failed" as const,
            ...(SharingErrors.envelope(SharingErrors.failureOf(outcome.error)) as object)
          }
    const tally = (outcomes: ReadonlyArray<ItemOutcome>) => {
      const created = outcomes.filter((o) => o._tag === "Created").length
      return { created, failed: outcomes.length - created }
    }
    return handlers
      .handle("bulkCreate", ({ payload, headers }) =>
        sharingRoute(
          "resources.bulkCreate",
          Effect.gen(function* () {
            const done = yield* idempotency.run(
              headers["idempotency-key"],
              { route: "bulk-create", body: payload },
              (seed) =>
                Effect.flatMap(resources.createLinks(payload.items, seed), (outcomes) =>
                  answerAs(BulkCreateResult, 200, {
                    items: outcomes.map((outcome, index) => ({ index, ...outcomeOf(outcome) })),
                    ...tally(outcomes)
                  })
                )
            )
            return idempotentResponse(done)
          })
        )
      )
      .handle("importLinks", ({ payload, headers, query }) =>
        sharingRoute(
          "resources.importLinks",
          Effect.gen(function* () {
            const options = typeof payload === "string" ? { csv: payload, source: query.source } : payload
            const defaults =
              typeof payload === "string" ? {} : { visibility: payload.visibility, labels: payload.labels }
            const records = readCsvRecords(options.csv)
            if (Result.isFailure(records)) return yield* records.failure
            const parsed = importRows(records.success, options.source, defaults)
            if (Result.isFailure(parsed)) return yield* parsed.failure
            const { source, rows } = parsed.success
            const done = yield* idempotency.run(
              headers["idempotency-key"],
              { route: "import", body: options },
              (seed) =>
                Effect.flatMap(
                  resources.createLinks(
                    rows.map((r) => r.item),
                    seed
                  ),
                  (outcomes) =>
                    answerAs(ImportResult, 200, {
                      source,
                      items: outcomes.map((outcome, index) => ({
                        row: rows[index]?.row ?? 0,
                        ...outcomeOf(outcome)
                      })),
                      ...tally(outcomes)
                    })
                )
            )
            return idempotentResponse(done)
          })
        )
      )
      .handle("create", ({ payload, headers }) =>
        sharingRoute(
          "resources.create",
          optionallyIdempotent(
            headers["idempotency-key"],
            Effect.map(resources.create(payload), withEtag),
            (key) =>
              idempotency.run(key, { route: "create", body: payload }, () =>
                Effect.flatMap(resources.create(payload), (record) =>
                  answerAs(ResourceView, 201, resourceView(record, origin), etagHeaders(record))
                )
              )
          )
        )
      )
      .handle("list", ({ query }) =>
        sharingRoute(
          "resources.list",
          Effect.gen(function* () {
            const page = yield* resources.list({
              limit: query.limit ?? RESOURCE_PAGE_SIZE.default,
              cursor: query.cursor,
              offset: query.offset,
              type: query.type,
              q: query.q,
              label: query.label,
              archived: query.archived === undefined ? undefined : query.archived === "true",
              pinned: query.pinned === undefined ? undefined : query.pinned === "true",
              sort: query.sort,
              uploadRequest: query.upload_request
            })
            return {
              items: page.items.map((item) => resourceView(item, origin)),
              next_cursor: page.nextCursor
            }
          })
        )
      )
      .handle("get", ({ params }) =>
        sharingRoute("resources.get", Effect.map(resources.get(params.slug), withEtag))
      )
      .handle("update", ({ params, headers, payload }) =>
        sharingRoute(
          "resources.update",
          Effect.map(resources.update(params.slug, payload, resourceIfMatchOf(headers)), withEtag)
        )
      )
      .handle("delete", ({ params }) =>
        sharingRoute("resources.delete", Effect.asVoid(resources.delete(params.slug)))
      )
      .handle("qr", ({ params, query }) =>
        sharingRoute(
          "resources.qr",
          Effect.gen(function* () {
            const resource = yield* resources.get(params.slug)
            const image = yield* qrCode(publicResourceUrl(origin, resource.slug), {
              format: query.format,
              size: query.size
            })
            return HttpServerResponse.uint8Array(image.body, {
              contentType: image.contentType,
              headers: { "cache-control": "private, max-age=300" }
            })
          })
        )
      )
      .handle("listMarkdownVersions", ({ params }) =>
        sharingRoute(
          "resources.listMarkdownVersions",
          Effect.gen(function* () {
            const versions = yield* resources.listMarkdownVersions(params.slug)
            return { items: versions.map(versionSummary) }
          })
        )
      )
      .handle("getMarkdownVersion", ({ params }) =>
        sharingRoute(
          "resources.getMarkdownVersion",
          Effect.gen(function* () {
            const version = yield* resources.getMarkdownVersion(params.slug, params.versionId)
            return { ...versionSummary(version), body_markdown: version.body }
          })
        )
      )
      .handle("restoreMarkdownVersion", ({ params, headers }) =>
        sharingRoute(
          "resources.restoreMarkdownVersion",
          Effect.gen(function* () {
            const restored = yield* resources.restoreMarkdownVersion(
              params.slug,
              params.versionId,
              resourceIfMatchOf(headers)
            )
            return HttpApiSchema.withHeaders({
              body: {
                resource: resourceView(restored.resource, origin),
                saved_version: versionSummary(restored.saved)
              },
              headers: { "x-resource-etag": resourceEtag(restored.resource) }
            })
          })
        )
      )
      .handle("simulateLink", ({ payload }) =>
        sharingRoute(
          "resources.simulateLink",
          Effect.gen(function* () {
            const { visit, ...fields } = payload
            return yield* resources.simulateLink(fields, yield* visitOf(visit))
          })
        )
      )
      .handle("simulateSavedLink", ({ params, payload }) =>
        sharingRoute(
          "resources.simulateSavedLink",
          Effect.gen(function* () {
            const { visit, ...fields } = payload
            return yield* resources.simulateSavedLink(params.slug, fields, yield* visitOf(visit))
          })
        )
      )
  })
)
