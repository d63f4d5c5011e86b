// Port: what a Notion mirror keeps of its source: the pages of its tree (their blocks as fetched,
// rendered when read, so links follow the mirror's current slug) and the files they show, copied
// into the blob store. A refresh replaces them in one transaction, with the bytes they hold.
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { NotionBlock } from "../notion/blocks.js"
import type { StorageQuotaReached } from "./resources.js"

export interface NotionPageRecord {
  readonly resourceId: string
  readonly tenantId: string
  readonly pageId: string
  /** Null for the mirror's root page. */
  readonly parentPageId: string | null
  /** Order in the tree (depth first, as the pages appear in their parents). */
  readonly position: number
  readonly depth: number
  readonly title: string
  readonly icon: string | null
  readonly blocks: ReadonlyArray<NotionBlock>
  readonly notionEditedAt: Date | null
  readonly refreshedAt: Date
}

export interface NotionAssetRecord {
  readonly id: string
  readonly resourceId: string
  readonly tenantId: string
  readonly pageId: string
  /** The image or file block that shows it. */
  readonly blockId: string
  readonly blobKey: string
  readonly contentType: string
  readonly bytes: number
  readonly name: string | null
  /** What the source file is (its URL without the expiring signature): equal means unchanged. */
  readonly fingerprint: string
  readonly createdAt: Date
}

export interface NotionMirrorState {
  readonly resourceId: string
  readonly tenantId: string
  /** The end of the last refresh that succeeded. */
  readonly lastRefreshedAt: Date | null
  /** The end of the last refresh, whatever its outcome (auto-refresh counts its interval from it). */
  readonly lastAttemptAt: Date | null
}

/** What one refresh fetched. */
export interface NotionSnapshot {
  /** `whole`: these are all the mirror's pages and assets now; `page`: one page and its assets. */
  readonly scope: { readonly _tag: "whole" } | { readonly _tag: "page"; readonly pageId: string }
  readonly pages: ReadonlyArray<NotionPageRecord>
  readonly assets: ReadonlyArray<NotionAssetRecord>
  readonly at: Date
}

export interface NotionMirrorsService {
  readonly state: (
    tenantId: string,
    resourceId: string
  ) => Effect.Effect<Option.Option<NotionMirrorState>, StorageError>
  /** The cached pages in tree order. */
  readonly pages: (
    tenantId: string,
    resourceId: string
  ) => Effect.Effect<ReadonlyArray<NotionPageRecord>, StorageError>
  readonly page: (
    tenantId: string,
    resourceId: string,
    pageId: string
  ) => Effect.Effect<Option.Option<NotionPageRecord>, StorageError>
  readonly assets: (
    tenantId: string,
    resourceId: string
  ) => Effect.Effect<ReadonlyArray<NotionAssetRecord>, StorageError>
  readonly asset: (
    tenantId: string,
    resourceId: string,
    assetId: string
  ) => Effect.Effect<Option.Option<NotionAssetRecord>, StorageError>
  /**
   * Stores a refresh in one transaction: pages and assets replaced (for `whole`, the ones no longer
   * in the tree removed), the resource's stored bytes set to its assets' total with the account's
   * usage moved by the difference (StorageQuotaReached when that passes `quotaBytes`, nothing
   * written), and the mirror's refresh times set. Answers the blob keys no asset uses any more
   * (to delete after the commit), or "gone" when the resource was deleted meanwhile.
   */
  readonly save: (
    tenantId: string,
    resourceId: string,
    snapshot: NotionSnapshot,
    quotaBytes: number | undefined
  ) => Effect.Effect<ReadonlyArray<string> | "gone", StorageQuotaReached | StorageError>
  /** Records a refresh that ended without saving (failed), for the auto-refresh interval. */
  readonly markAttempt: (tenantId: string, resourceId: string, at: Date) => Effect.Effect<void, StorageError>
  /**
   * Live mirrors with auto-refresh on whose interval has passed since their last refresh (or
   * creation), with no refresh queued or running: the scheduler queues one for each.
   */
  readonly dueForAutoRefresh: (
    at: Date,
    limit: number,
    /** The interval of a mirror that has none (DEFAULT_NOTION_REFRESH_SECONDS). */
    defaultIntervalSeconds: number
  ) => Effect.Effect<ReadonlyArray<{ readonly tenantId: string; readonly resourceId: string }>, StorageError>
}

export class NotionMirrors extends Context.Service<NotionMirrors, NotionMirrorsService>()(
  "@folio/domain/NotionMirrors"
) {}
