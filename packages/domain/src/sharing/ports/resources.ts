// Port: shared resources and the versions of Markdown pages. Every method an owner calls takes the
// tenant id, so a read or write across tenants is impossible by construction; the one exception is
// the slug lookup behind public serving (`/s/{slug}` names no tenant), which says so in its name.
import { type Effect, Context, type Option, Schema } from "effect"
import type { InvalidCursor, Page } from "../../kernel/cursor.js"
import type { StorageError } from "../../kernel/errors.js"
import type { NewJob } from "../../kernel/jobs/job.js"
import type { SharingEventRecord } from "./upload-requests.js"
import type {
  ResourceListItem,
  ResourceRecord,
  ResourceRecordOf,
  ResourceType
} from "../resources/resource.js"

/** The slug is used by another live resource (of any tenant: public URLs are global). */
export class ResourceSlugTaken {
  readonly _tag = "ResourceSlugTaken"
  constructor(readonly slug: string) {}
}

/** A write would take the account's stored bytes past its quota: nothing was written. */
export class StorageQuotaReached {
  readonly _tag = "StorageQuotaReached"
  constructor(
    readonly usedBytes: number,
    readonly quotaBytes: number
  ) {}
}

/** The orders a resource list can take; the default is `created_desc`. Ties break on id. */
export const ResourceSort = Schema.Literals([
  "created_desc",
  "created_asc",
  "updated_desc",
  "updated_asc",
  "title_asc",
  "title_desc"
])
export type ResourceSort = typeof ResourceSort.Type

export interface ResourceListQuery {
  /** Page size, already bounded by the caller. */
  readonly limit: number
  /** A `nextCursor` of an earlier page of this list with the same sort (else InvalidCursor). */
  readonly cursor?: string | undefined
  /** Items to skip (after the cursor's position, when both are given). */
  readonly offset?: number | undefined
  readonly type?: ResourceType | undefined
  /** Case-insensitive substring of title, slug or description. */
  readonly q?: string | undefined
  /** Resources carrying this label. */
  readonly label?: string | undefined
  readonly archived?: boolean | undefined
  readonly pinned?: boolean | undefined
  readonly sort?: ResourceSort | undefined
  /** Resources created by the submissions of this upload request (its id). */
  readonly uploadRequest?: string | undefined
}

/** Keep the newest this many earlier versions of each Markdown page (sharing-api.md, limits). */
export const MARKDOWN_VERSIONS_KEPT = 50

/** A Markdown version to save: the source a write is about to replace. */
export interface NewMarkdownVersion {
  /** UUID v7. */
  readonly id: string
  readonly body: string
  readonly createdAt: Date
}

/** An earlier source of a Markdown page, without the source. */
export interface MarkdownVersionSummary {
  readonly id: string
  readonly resourceId: string
  /** 1, 2, 3, ... per page in the order saved; numbers of trimmed versions are not reused. */
  readonly number: number
  /** Size of the source in bytes of UTF-8. */
  readonly size: number
  readonly createdAt: Date
}

export interface MarkdownVersionRecord extends MarkdownVersionSummary {
  readonly body: string
}

export type RestoreOutcome =
  | {
      readonly _tag: "Restored"
      readonly resource: ResourceRecordOf<"markdown">
      /** The version holding the source the restore replaced: restoring it undoes the restore. */
      readonly saved: MarkdownVersionSummary
    }
  /** No live Markdown page of the tenant with that id. */
  | { readonly _tag: "ResourceNotFound" }
  /** The page has no version with that id (never had, or trimmed). */
  | { readonly _tag: "VersionNotFound" }
  /** `expectedRowVersion` was given and the page has changed since. */
  | { readonly _tag: "Stale" }

/** How a write that adds stored bytes is bounded. */
export interface ResourceQuotaOptions {
  /**
   * The account's storage quota: the write is refused (StorageQuotaReached, nothing written) when the
   * account's stored bytes would pass it. Checked and counted in the write's transaction, so
   * concurrent writes can never pass it together. Writes that free bytes always pass.
   */
  readonly quotaBytes?: number | undefined
}

export interface ResourceInsertOptions extends ResourceQuotaOptions {
  /**
   * A job the new resource needs (a Notion mirror's first refresh), queued in the insert's
   * transaction: if queueing fails, nothing is created.
   */
  readonly enqueue?: NewJob | undefined
}

export interface ResourceUpdateOptions extends ResourceQuotaOptions {
  /**
   * Saves the source this update replaces as a Markdown version, in the same transaction, trimmed
   * to the newest MARKDOWN_VERSIONS_KEPT. Pass the body of the record the update was computed from:
   * the CAS on rowVersion guarantees it is still the stored one.
   */
  readonly saveVersion?: NewMarkdownVersion | undefined
}

/**
 * Every insert, update and delete also writes its `resource.created`, `resource.updated` or
 * `resource.deleted` event to the outbox in the same transaction (webhooks deliver them).
 */
export interface ResourceRepositoryService {
  /**
   * A new resource; its slug must be free among live resources of every tenant. Its `storedBytes`
   * are added to the account's stored bytes in the same transaction.
   */
  readonly insert: (
    resource: ResourceRecord,
    options?: ResourceInsertOptions
  ) => Effect.Effect<void, ResourceSlugTaken | StorageQuotaReached | StorageError>
  /** A live resource of the tenant by id. */
  readonly get: (tenantId: string, id: string) => Effect.Effect<Option.Option<ResourceRecord>, StorageError>
  /** A live resource of the tenant by slug (the owner's routes). */
  readonly getBySlug: (
    tenantId: string,
    slug: string
  ) => Effect.Effect<Option.Option<ResourceRecord>, StorageError>
  /**
   * The live resource at a slug, whichever tenant owns it: public serving, and telling an owner's
   * 404 (nothing there) from 403 (another account's).
   */
  readonly getBySlugAnyTenant: (slug: string) => Effect.Effect<Option.Option<ResourceRecord>, StorageError>
  /** Whether a live resource with this id exists in any tenant: telling an owner's 403 from 404 by id. */
  readonly existsAnyTenant: (id: string) => Effect.Effect<boolean, StorageError>
  /**
   * Replaces the stored resource with `next` if its rowVersion still equals `next.rowVersion - 1`
   * and it is still live, of this tenant and of `next.type` (else `stale`, nothing written).
   * `id`, `type`, `visibility`, `createdAt` and `viewCount` are never written by an update. A change
   * of `storedBytes` moves the account's stored bytes by the difference, in the same transaction.
   */
  readonly update: (
    tenantId: string,
    next: ResourceRecord,
    options?: ResourceUpdateOptions
  ) => Effect.Effect<"updated" | "stale", ResourceSlugTaken | StorageQuotaReached | StorageError>
  /**
   * Adds counted public views to resources by id, in one statement (the view batcher's flush). It
   * touches only `viewCount`: never rowVersion nor updatedAt, so a view does not stale an owner's
   * ETag. Ids of deleted or unknown resources are skipped.
   */
  readonly addViews: (
    counts: ReadonlyMap<string, number>,
    /** `link.clicked` events of the counted redirects, written in the same transaction. */
    clicks?: ReadonlyArray<SharingEventRecord>
  ) => Effect.Effect<void, StorageError>
  /**
   * Soft delete (the slug is free again at once) that gives the resource's stored bytes back to the
   * account in the same transaction; false when no live resource matched.
   */
  readonly softDelete: (tenantId: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
  /** The bytes the account's live resources hold (what the quota counts). */
  readonly storageUsed: (tenantId: string) => Effect.Effect<number, StorageError>
  /** One page of the tenant's live resources; `nextCursor` is set whenever more follow. */
  readonly list: (
    tenantId: string,
    query: ResourceListQuery
  ) => Effect.Effect<Page<ResourceListItem>, InvalidCursor | StorageError>

  /** The kept versions of a live Markdown page of the tenant, newest first (at most 50). */
  readonly listMarkdownVersions: (
    tenantId: string,
    resourceId: string
  ) => Effect.Effect<ReadonlyArray<MarkdownVersionSummary>, StorageError>
  readonly getMarkdownVersion: (
    tenantId: string,
    resourceId: string,
    versionId: string
  ) => Effect.Effect<Option.Option<MarkdownVersionRecord>, StorageError>
  /**
   * Makes a version's source current, in one transaction: the current source is saved as a new
   * version `saveAs` (so the restore can be undone), the page takes the version's source, its
   * rowVersion is bumped and updatedAt set to `saveAs.createdAt`. The restored version stays listed
   * (unless it was the oldest and the new one pushed it past the 50 kept: its source is current then).
   */
  readonly restoreMarkdownVersion: (
    tenantId: string,
    resourceId: string,
    versionId: string,
    saveAs: {
      readonly id: string
      readonly createdAt: Date
      readonly expectedRowVersion?: number | undefined
    }
  ) => Effect.Effect<RestoreOutcome, StorageError>
}

export class ResourceRepository extends Context.Service<ResourceRepository, ResourceRepositoryService>()(
  "@folio/domain/ResourceRepository"
) {}

/**
 * Port: what this instance already holds of the public slug lookup, read without waiting. The
 * redirect's plain node:http fast path serves a warm link from it and leaves everything else
 * (a cold slug, a page, a password, a state page) to the routes, which read the repository.
 */
export interface WarmResourcesService {
  /**
   * The live resource at `slug` as held here and still fresh at `nowMs`: Some, or None when it is
   * known not to exist; undefined when nothing fresh is held (ask the repository).
   */
  readonly peek: (slug: string, nowMs: number) => Option.Option<ResourceRecord> | undefined
}

export class WarmResources extends Context.Service<WarmResources, WarmResourcesService>()(
  "@folio/domain/WarmResources"
) {}
