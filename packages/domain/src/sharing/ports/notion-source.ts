// Port: reading a Notion page tree and the bytes of its files, for Notion mirrors. The adapter
// talks to the Notion API; errors carry a reason and a value-free message (no token, no body).
import { Context, Data, type Effect } from "effect"
import type { NotionPage } from "../notion/blocks.js"

export type NotionSourceErrorReason =
  | "unauthorized"
  | "not_found"
  | "rate_limited"
  | "unavailable"
  | "too_large"

export class NotionSourceError extends Data.TaggedError("NotionSourceError")<{
  readonly reason: NotionSourceErrorReason
  readonly message: string
  /** For rate_limited: how long Notion asked us to wait, when it said. */
  readonly retryAfterSeconds?: number
}> {}

export interface NotionSourceService {
  /** Whether a token is configured (the server feature `notion_enabled`). */
  readonly enabled: boolean
  /**
   * One page with all its blocks (children fetched recursively, paginated; child pages are NOT
   * descended into, they appear as child_page blocks).
   */
  readonly page: (pageId: string) => Effect.Effect<NotionPage, NotionSourceError>
  /** The bytes of a hosted file (or external image) URL from a block, at most maxBytes (else too_large). */
  readonly asset: (
    url: string,
    maxBytes: number
  ) => Effect.Effect<{ readonly bytes: Uint8Array; readonly contentType: string | null }, NotionSourceError>
}

export class NotionSource extends Context.Service<NotionSource, NotionSourceService>()(
  "@folio/domain/NotionSource"
) {}
