// The owner's analytics routes: the summary of one resource (rollups only) and the CSV exports of
// raw visits (one resource, or every live resource of the account), streamed a page at a time and
// cut at the row cap, which is known before the first byte (a count that stops at cap + 1).
import { Clock, Effect, Option, Stream } from "effect"
import { Principal } from "../../identity/principal.js"
import type { StorageError } from "../../kernel/errors.js"
import { AnalyticsStore, type ExportedVisit, type VisitCursor, type VisitFilter } from "../ports/analytics.js"
import { ownedBySlug } from "../resources/use-cases.js"
import {
  AnalyticsPolicy,
  EXPORT_MAX_ROWS,
  exportRange,
  type RangeQuery,
  summaryRange,
  TOP_VALUES
} from "./range.js"
import { analyticsSummaryView, visitCsvHeader, visitCsvLine } from "./wire.js"
import { addDays, dayOf, dayStart } from "./visit.js"

const today = Effect.map(Clock.currentTimeMillis, dayOf)

/** `GET /analytics/resources/{slug}`: daily series and top values from the rollups. */
export const resourceAnalytics = (slug: string, query: RangeQuery) =>
  Effect.gen(function* () {
    const range = yield* summaryRange(query, yield* today)
    const principal = yield* Principal
    const r = yield* ownedBySlug(slug)
    const store = yield* AnalyticsStore
    const rollups = yield* store.rollups(principal.tenant, r.id, range, TOP_VALUES)
    // All time starts at the resource's creation, or at its first recorded day if that is earlier.
    const created = dayOf(r.createdAt)
    const first = rollups.days[0]?.day
    const from = range.from ?? (first !== undefined && first < created ? first : created)
    return analyticsSummaryView({ slug: r.slug, from, to: range.to, days: rollups.days, top: rollups.top })
  })

const EXPORT_PAGE = 1000

export interface VisitsCsv {
  readonly filename: string
  /** Whether the export stops at the row cap with visits left over (`X-Svc-Truncated`). */
  readonly truncated: boolean
  readonly lines: Stream.Stream<string, StorageError>
}

const visitsCsv = (
  resource: { readonly id: string; readonly slug: string } | undefined,
  range: { readonly from: string; readonly to: string }
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const store = yield* AnalyticsStore
    const max = Math.min((yield* AnalyticsPolicy).exportMaxRows, EXPORT_MAX_ROWS)
    const filter: VisitFilter = {
      resourceId: resource?.id,
      from: dayStart(range.from),
      to: dayStart(addDays(range.to, 1))
    }
    // Known before streaming: headers go out first. A visit written while the export runs may
    // fall either side of the cap (the count is a moment's).
    const truncated = (yield* store.countVisits(principal.tenant, filter, max + 1)) > max
    const rows = Stream.paginate(undefined as VisitCursor | undefined, (after) =>
      Effect.map(store.visits(principal.tenant, filter, { limit: EXPORT_PAGE, after }), (items) => {
        const last: ExportedVisit | undefined = items.at(-1)
        return [
          // A row standing for several identical visits is as many identical lines.
          items.flatMap((v) => {
            const line = visitCsvLine(v)
            return v.count === 1 ? [line] : Array.from({ length: v.count }, () => line)
          }),
          items.length < EXPORT_PAGE || last === undefined
            ? Option.none<VisitCursor>()
            : Option.some({ at: last.at, id: last.id })
        ] as const
      })
    ).pipe(Stream.take(max))
    const name = resource === undefined ? "analytics" : `${resource.slug}-analytics`
    const csv: VisitsCsv = {
      filename: `${name}-${range.from}-${range.to}.csv`,
      truncated,
      lines: Stream.concat(Stream.make(visitCsvHeader), rows)
    }
    return csv
  })

/** `GET /analytics/resources/{slug}/export`: one resource's visits, oldest first. */
export const exportResourceVisits = (slug: string, query: RangeQuery) =>
  Effect.gen(function* () {
    const range = yield* exportRange(query, yield* today)
    const r = yield* ownedBySlug(slug)
    return yield* visitsCsv(r, range)
  })

/** `GET /analytics/export`: the visits of every live resource of the account, oldest first. */
export const exportAccountVisits = (query: RangeQuery) =>
  Effect.flatMap(
    Effect.flatMap(today, (day) => exportRange(query, day)),
    (range) => visitsCsv(undefined, range)
  )
