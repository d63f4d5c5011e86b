// Ports of analytics: the recorder the public routes hand each counted view to (in memory, written
// in batches off the request path, like ViewCounter), and the store of raw visits and their daily
// rollups. Every read takes the tenant id; a summary reads rollups only, never raw visits.
import { Context, type Effect } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { Dimension } from "../analytics/rollup.js"
import type { VisitHit, VisitRecord } from "../analytics/visit.js"

export interface VisitRecorderService {
  /** Records one counted view. Never waits on storage. */
  readonly record: (hit: VisitHit) => Effect.Effect<void>
  /** `record` without an effect around it, for the redirect's plain node:http fast path. */
  readonly recordNow: (hit: VisitHit) => void
  /** Writes what is waiting now (also done every second and when the recorder's scope closes). */
  readonly flush: Effect.Effect<void>
}

export class VisitRecorder extends Context.Service<VisitRecorder, VisitRecorderService>()(
  "@folio/domain/VisitRecorder"
) {}

/** Days `from`..`to` inclusive (`YYYY-MM-DD`, UTC); an absent bound is open. */
export interface DayRange {
  readonly from?: string | undefined
  readonly to?: string | undefined
}

export interface DayTotals {
  readonly day: string
  readonly views: number
  readonly botViews: number
  /** Distinct visitors of that day (people only). */
  readonly visitors: number
}

export interface ValueCount {
  readonly dimension: Dimension
  readonly value: string
  readonly views: number
}

export interface ResourceRollups {
  /** The days in range that have any view, in order. */
  readonly days: ReadonlyArray<DayTotals>
  /** The `limit` most viewed values of each dimension over the range (ties by value). */
  readonly top: ReadonlyArray<ValueCount>
}

/** Raw visits of one resource, or of every live resource of the tenant, in [from, to). */
export interface VisitFilter {
  readonly resourceId?: string | undefined
  readonly from: Date
  readonly to: Date
}

/** A page position in the export's order (time, then row id). */
export interface VisitCursor {
  readonly at: Date
  readonly id: string
}

export interface ExportedVisit extends VisitRecord {
  /** The row's id (its insertion order), for the next page's cursor. */
  readonly id: string
  /** The resource's current slug. */
  readonly slug: string
}

export interface AnalyticsStoreService {
  /**
   * Stores the visits and adds them to the daily rollups in one transaction: either all of it lands
   * or nothing does (the recorder then keeps the batch for the next flush).
   */
  readonly append: (visits: ReadonlyArray<VisitRecord>) => Effect.Effect<void, StorageError>
  /** Daily totals and top values of one resource over a range, from the rollups. */
  readonly rollups: (
    tenantId: string,
    resourceId: string,
    range: DayRange,
    limit: number
  ) => Effect.Effect<ResourceRollups, StorageError>
  /**
   * How many visits match (the rows' counts summed), reading at most `cap` rows: a result above
   * `cap - 1` means at least that many.
   */
  readonly countVisits: (
    tenantId: string,
    filter: VisitFilter,
    cap: number
  ) => Effect.Effect<number, StorageError>
  /** One page of raw visit rows in time order (then id), after `after`; only live resources'. */
  readonly visits: (
    tenantId: string,
    filter: VisitFilter,
    page: { readonly limit: number; readonly after?: VisitCursor | undefined }
  ) => Effect.Effect<ReadonlyArray<ExportedVisit>, StorageError>
  /**
   * Drops the per-day visitor hashes of days before `day`: they only tell a day's new visitors
   * from its returning ones, and a finished day takes no more visits.
   */
  readonly forgetVisitorsBefore: (day: string) => Effect.Effect<void, StorageError>
}

export class AnalyticsStore extends Context.Service<AnalyticsStore, AnalyticsStoreService>()(
  "@folio/domain/AnalyticsStore"
) {}
