// Port: counting public views off the request path. A view is recorded in memory and written in
// batches with ResourceRepository.addViews; `pending` lets `max_views` see views not written yet.
// A visit counts once: the public pages mark a counted view with a cookie scoped to the resource's
// URL that lives VIEW_DEDUP_WINDOW_MS, so a reload within it is no second view, on any instance.
import { Context, type Effect } from "effect"

/** A visitor's views of one resource within this window count once. */
export const VIEW_DEDUP_WINDOW_MS = 30 * 60_000

/** One counted redirect of a link whose owner asked for `link.clicked` events. */
export interface LinkClick {
  readonly tenantId: string
  readonly resourceId: string
  readonly slug: string
  readonly destination: string
  readonly at: Date
}

export interface ViewCounterService {
  /** Counts one view of `resourceId`. Never waits on storage. */
  readonly record: (resourceId: string) => Effect.Effect<void>
  /** `record` without an effect around it, for the redirect's plain node:http fast path. */
  readonly recordNow: (resourceId: string) => void
  /**
   * A counted redirect of a link with `webhook_clicks` on: its `link.clicked` event is written with
   * the batch of views it belongs to. Synchronous, like `recordNow`.
   */
  readonly recordClick: (click: LinkClick) => void
  /** Views counted here and not yet written (synchronous: the redirect reads it on every visit). */
  readonly pending: (resourceId: string) => number
  /** Writes what is pending now (also done every second and when the counter's scope closes). */
  readonly flush: Effect.Effect<void>
}

export class ViewCounter extends Context.Service<ViewCounter, ViewCounterService>()(
  "@folio/domain/ViewCounter"
) {}
