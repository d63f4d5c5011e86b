// Port: counting public views off the request path. A view is recorded in memory (deduplicated per
// visitor and resource for a while, so a reload is not a second view) and written in batches with
// ResourceRepository.addViews; `pending` lets `max_views` see views not written yet.
import { Context, type Effect } from "effect"

/** A visitor's views of one resource within this window count once (per process). */
export const VIEW_DEDUP_WINDOW_MS = 30 * 60_000

export interface ViewCounterService {
  /**
   * Counts a view of `resourceId` by `visitorId` at `atMs` unless the same visitor's view of it was
   * counted in the last VIEW_DEDUP_WINDOW_MS; true when this one counted. Never waits on storage.
   */
  readonly record: (resourceId: string, visitorId: string, atMs: number) => Effect.Effect<boolean>
  /** `record` without an effect around it, for the redirect's plain node:http fast path. */
  readonly recordNow: (resourceId: string, visitorId: string, atMs: number) => boolean
  /** Views counted here and not yet written (synchronous: the redirect reads it on every visit). */
  readonly pending: (resourceId: string) => number
  /** Writes what is pending now (also done every second and when the counter's scope closes). */
  readonly flush: Effect.Effect<void>
}

export class ViewCounter extends Context.Service<ViewCounter, ViewCounterService>()(
  "@folio/domain/ViewCounter"
) {}
