// The owner's resource use cases behind the sharing REST routes: create, read, list, patch and delete
// (Markdown versions and link simulation sit beside it). Every one works on the Principal's tenant
// only; a slug of another account is ResourceOfAnotherAccount (403 on resource routes), an unknown or
// deleted one ResourceNotFound. (Every instance's public cache hears each write from the repository's
// caching adapter, on the InvalidationBus topic RESOURCES_TOPIC.)
import { Clock, Context, Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import type { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { RateLimitStore as RateLimitStoreTag } from "../../identity/ports/rate-limit-store.js"
import { decideRate } from "../../identity/rate-limit.js"
import type { InvalidCursor } from "../../kernel/cursor.js"
import { RateLimited, type StorageError } from "../../kernel/errors.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  FieldOfOtherType,
  MarkdownBodyMissing,
  MarkdownSourceAmbiguous,
  NotionRootPageInvalid,
  NotionSourceAmbiguous,
  NotionSourceMissing,
  NotionSourceNamesNoPage,
  ResourceChanged,
  ResourceCursorUnknown,
  type ResourceNoun,
  ResourceNotFound,
  ResourceOfAnotherAccount,
  ResourceOfOtherType,
  ResourceSlugInUse,
  StorageQuotaExceeded,
  TypeImmutable,
  VisibilityImmutable,
  WindowInverted
} from "../errors.js"
import { hashPassword } from "../ports/password-hasher.js"
import { ResourceRepository, type ResourceListQuery, type ResourceInsertOptions } from "../ports/resources.js"
import type { Page } from "../../kernel/cursor.js"
import {
  type ResourceCommon,
  type ResourceListItem,
  type ResourceRecord,
  type ResourceRecordOf,
  isResourceOf,
  makeResourceRecord,
  newResourceRecord,
  ifMatchNames,
  resourceBlobPrefix,
  resourceEtag
} from "./resource.js"
import { dateOrNull, describedBy, normalizeLabels, randomResourceSlug } from "./rules.js"
import { announceJob } from "../../kernel/jobs/runner.js"
import { DEFAULT_NOTION_REFRESH_SECONDS, firstRefreshJob, requireNotion } from "../notion/feature.js"
import { notionPageIdFrom } from "../notion/blocks.js"
import { type CreateResourceInput, type PatchResourceInput, TYPE_FIELDS } from "./wire.js"

/** The InvalidationBus topic of public resources; the key is the slug. */
export const RESOURCES_TOPIC = "resources"

/** Link creations a key may make per hour through `POST /resources` (sharing-api.md, limits). */
export const LINK_CREATIONS_PER_HOUR = 60
const HOUR_MS = 60 * 60 * 1000

/** The link creation budget; a Reference so a deployment (or a test) can change it. */
export const LinkCreationPolicy = Context.Reference<{ readonly perKeyPerHour: number }>(
  "@folio/domain/LinkCreationPolicy",
  { defaultValue: () => ({ perKeyPerHour: LINK_CREATIONS_PER_HOUR }) }
)

/** The link creation bucket of a key, beside the request budgets in the RateLimitStore. */
export const linkCreationBucket = (keyId: string): string => `sharing-links:${keyId}`

/** Tries at a random slug before giving up (40 bits each: a clash is already rare). */
const RANDOM_SLUG_TRIES = 5

/**
 * A create from JSON and a PATCH hold no stored bytes and move none, so no quota can refuse them; a
 * refusal would be a bug, not the client's doing.
 */
const bytesOutOfPlace = () => Effect.die(new Error("a write that stores no bytes was refused by the quota"))

/** The current instant as a Date (from Clock, so tests can set it). */
export const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The tenant's live resource at `slug`, or why not (403 for another account's, else 404). */
export const ownedBySlug = (
  slug: string
): Effect.Effect<
  ResourceRecord,
  ResourceNotFound | ResourceOfAnotherAccount | StorageError,
  Principal | ResourceRepository
> =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const own = yield* repo.getBySlug(principal.tenant, slug)
    if (Option.isSome(own)) return own.value
    const any = yield* repo.getBySlugAnyTenant(slug)
    return yield* Option.isSome(any) ? new ResourceOfAnotherAccount() : new ResourceNotFound()
  })

/**
 * The tenant's live resource of `type` at `slug`: 403 for another account's, 404 for none, and
 * validation_failed on `slug` for a resource of another type (the route is that type's).
 */
export const ownedOfType = <T extends ResourceRecord["type"]>(slug: string, type: T, noun: ResourceNoun) =>
  Effect.flatMap(ownedBySlug(slug), (r) =>
    isResourceOf(r, type)
      ? Effect.succeed(r)
      : Effect.fail(new ResourceOfOtherType({ resourceType: r.type, wanted: noun }))
  )

/** Whether an If-Match value (X-Resource-If-Match or the standard one) names the record's current ETag. */
export const etagMatches = (ifMatch: string, record: Pick<ResourceCommon, "id" | "rowVersion">): boolean =>
  ifMatchNames(ifMatch, resourceEtag(record))

const checkWindow = (startsAt: Date | null, expiresAt: Date | null) =>
  startsAt !== null && expiresAt !== null && startsAt.getTime() >= expiresAt.getTime()
    ? Effect.fail(new WindowInverted())
    : Effect.void

/** The one source of a Markdown body sent as `body_markdown` or `raw_markdown`. */
const markdownSource = (input: {
  readonly body_markdown?: string | undefined
  readonly raw_markdown?: string | undefined
}): Effect.Effect<string | undefined, MarkdownSourceAmbiguous> =>
  input.body_markdown !== undefined && input.raw_markdown !== undefined
    ? Effect.fail(new MarkdownSourceAmbiguous())
    : Effect.succeed(input.body_markdown ?? input.raw_markdown)

const notionSource = (input: {
  readonly source_url?: string | undefined
  readonly fetch_url?: string | undefined
}): Effect.Effect<string | undefined, NotionSourceAmbiguous> =>
  input.source_url !== undefined && input.fetch_url !== undefined
    ? Effect.fail(new NotionSourceAmbiguous())
    : Effect.succeed(input.source_url ?? input.fetch_url)

/** Counts one link creation of the key; over the hour's budget, RateLimited before anything is written. */
const spendLinkCreation = (limits: RateLimitStore["Service"], keyId: string) =>
  Effect.gen(function* () {
    const policy = yield* LinkCreationPolicy
    const at = yield* Clock.currentTimeMillis
    const hit = yield* limits.hit(linkCreationBucket(keyId), HOUR_MS, at)
    const decision = decideRate(hit.count, policy.perKeyPerHour, hit.resetAt, at)
    if (!decision.allowed)
      return yield* new RateLimited({
        message: `at most ${policy.perKeyPerHour} links may be created per hour with one key`,
        retryAfterSeconds: decision.resetSeconds
      })
  })

/** The type data of a create body (the Markdown and Notion source required here, with its field). */
const createData = (input: CreateResourceInput) =>
  Effect.gen(function* () {
    switch (input.type) {
      case "link":
        return {
          type: "link" as const,
          data: {
            targetUrl: input.target_url,
            redirectRules: input.redirect_rules ?? null,
            testVariants: input.test_variants ?? null,
            fallbackUrl: input.fallback_url ?? null,
            webhookClicks: input.webhook_clicks ?? false,
            ogTitle: input.og_title ?? null,
            ogDescription: input.og_description ?? null,
            ogImageUrl: input.og_image_url ?? null
          }
        }
      case "markdown": {
        const body = yield* markdownSource(input)
        if (body === undefined) return yield* new MarkdownBodyMissing()
        return { type: "markdown" as const, data: { body } }
      }
      case "collection":
        return {
          type: "collection" as const,
          data: { layout: input.layout ?? null, settings: input.settings ?? null }
        }
      case "notion": {
        yield* requireNotion
        const sourceUrl = yield* notionSource(input)
        if (sourceUrl === undefined) return yield* new NotionSourceMissing()
        const rootPageId = input.root_page_id ?? null
        if (rootPageId !== null && notionPageIdFrom(rootPageId) === undefined)
          return yield* new NotionRootPageInvalid()
        if (rootPageId === null && notionPageIdFrom(sourceUrl) === undefined)
          return yield* new NotionSourceNamesNoPage({
            field: input.fetch_url !== undefined ? "fetch_url" : "source_url"
          })
        const autoRefresh = input.auto_refresh ?? false
        return {
          type: "notion" as const,
          data: {
            sourceUrl,
            rootPageId,
            autoRefresh,
            refreshIntervalSeconds:
              input.refresh_interval_seconds ?? (autoRefresh ? DEFAULT_NOTION_REFRESH_SECONDS : null)
          }
        }
      }
      case "bio":
        return {
          type: "bio" as const,
          data: {
            theme: input.theme ?? null,
            settings: input.settings ?? null,
            rootPageSlug: input.root_page_slug ?? null,
            rootPageTitle: input.root_page_title ?? null
          }
        }
    }
  })

/** How a create runs beyond its body. */
export interface CreateOptions {
  /** Spend the key's hourly link budget: `POST /resources` does; bulk create and import do not. */
  readonly spendLinkBudget: boolean
  /** The new resource's id; a fresh UUID v7 when omitted (bulk items bring ids derived from their key). */
  readonly id?: string | undefined
}

/** A new resource of the caller's account (`POST /resources`, and each item of a bulk create). */
export const createResourceWith = (input: CreateResourceInput, options: CreateOptions) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const ids = yield* IdGen
    const startsAt = dateOrNull(input.starts_at)
    const expiresAt = dateOrNull(input.expires_at)
    yield* checkWindow(startsAt, expiresAt)
    const typed = yield* createData(input)
    if (input.type === "link" && options.spendLinkBudget)
      yield* spendLinkCreation(yield* RateLimitStoreTag, principal.keyId)
    const passwordHash = yield* hashPassword(input.password)
    const at = yield* now
    const id = options.id ?? (yield* ids.uuidV7)
    const maxViews = input.type === "link" || input.type === "markdown" ? (input.max_views ?? null) : null
    const recordAt = (slug: string): ResourceRecord =>
      newResourceRecord(
        {
          id,
          tenantId: principal.tenant,
          slug,
          ...describedBy(input),
          passwordHash,
          startsAt,
          expiresAt,
          maxViews,
          archived: input.archived ?? false,
          pinned: input.pinned ?? false,
          at
        },
        typed
      )
    // A mirror's first refresh is queued with it: if queueing fails, nothing is created.
    const enqueue = typed.type === "notion" ? yield* firstRefreshJob(id) : undefined
    const created = yield* insertResource(recordAt, input.slug, { enqueue }).pipe(
      Effect.catchTag("StorageQuotaExceeded", bytesOutOfPlace)
    )
    if (enqueue !== undefined) yield* announceJob(enqueue.id)
    return created
  })

/**
 * Inserts the record `recordAt` builds at `slug`, or at a random slug (a few tries) when none is
 * asked for; its stored bytes count against `quota` in the same transaction.
 */
export const insertResource = (
  recordAt: (slug: string) => ResourceRecord,
  slug: string | undefined,
  quota?: ResourceInsertOptions
): Effect.Effect<
  ResourceRecord,
  ResourceSlugInUse | StorageQuotaExceeded | StorageError,
  ResourceRepository | IdGen
> =>
  Effect.gen(function* () {
    const repo = yield* ResourceRepository
    const quotaRefused = () => Effect.fail(new StorageQuotaExceeded())
    if (slug !== undefined) {
      const record = recordAt(slug)
      yield* repo.insert(record, quota).pipe(
        Effect.catchTags({
          ResourceSlugTaken: () => Effect.fail(new ResourceSlugInUse()),
          StorageQuotaReached: quotaRefused
        })
      )
      return record
    }
    // A random slug that is taken is a lost race like a stale version: draw another.
    return yield* retryOnStale(
      RANDOM_SLUG_TRIES,
      () =>
        Effect.gen(function* () {
          const record = recordAt(yield* randomResourceSlug)
          return yield* repo.insert(record, quota).pipe(
            Effect.as(Option.some(record)),
            Effect.catchTags({
              ResourceSlugTaken: () => Effect.succeed(Option.none<ResourceRecord>()),
              StorageQuotaReached: quotaRefused
            })
          )
        }),
      () => new ResourceSlugInUse()
    )
  })

/** `POST /resources`: a new resource of the caller's account. */
export const createResource = (input: CreateResourceInput) =>
  createResourceWith(input, { spendLinkBudget: true })

/** `GET /resources/{slug}`. */
export const getResource = (slug: string) => ownedBySlug(slug)

/** `GET /resources`: one page of the caller's live resources. */
export const listResources = (
  query: ResourceListQuery
): Effect.Effect<
  Page<ResourceListItem>,
  ResourceCursorUnknown | StorageError,
  Principal | ResourceRepository
> =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    return yield* repo
      .list(principal.tenant, query)
      .pipe(Effect.catchTag("InvalidCursor", (_: InvalidCursor) => Effect.fail(new ResourceCursorUnknown())))
  })

/** A patch applied to `current` (nothing written): the next record, or the field refused. */
const applyPatch = (current: ResourceRecord, patch: PatchResourceInput, at: Date) =>
  Effect.gen(function* () {
    if (patch.type !== undefined && patch.type !== current.type) return yield* new TypeImmutable()
    if (patch.visibility !== undefined && patch.visibility !== current.visibility)
      return yield* new VisibilityImmutable()
    const own = new Set<string>(TYPE_FIELDS[current.type])
    for (const type of Object.keys(TYPE_FIELDS) as Array<keyof typeof TYPE_FIELDS>) {
      for (const field of TYPE_FIELDS[type]) {
        if (!own.has(field) && patch[field] !== undefined)
          return yield* new FieldOfOtherType({ field, resourceType: current.type })
      }
    }
    const startsAt = patch.starts_at === undefined ? current.startsAt : dateOrNull(patch.starts_at)
    const expiresAt = patch.expires_at === undefined ? current.expiresAt : dateOrNull(patch.expires_at)
    yield* checkWindow(startsAt, expiresAt)
    const passwordHash =
      patch.password === undefined ? current.passwordHash : yield* hashPassword(patch.password)
    const common: ResourceCommon = {
      ...current,
      slug: patch.slug ?? current.slug,
      title: patch.title === undefined ? current.title : patch.title,
      description: patch.description === undefined ? current.description : patch.description,
      passwordHash,
      startsAt,
      expiresAt,
      labels: patch.labels === undefined ? current.labels : normalizeLabels(patch.labels),
      maxViews: patch.max_views === undefined ? current.maxViews : patch.max_views,
      archived: patch.archived ?? current.archived,
      pinned: patch.pinned ?? current.pinned,
      rowVersion: current.rowVersion + 1,
      updatedAt: at
    }
    const keep = <A>(value: A | undefined, otherwise: A): A => (value === undefined ? otherwise : value)
    switch (current.type) {
      case "link": {
        const d = current.data
        const next: ResourceRecordOf<"link"> = {
          ...common,
          type: "link",
          data: {
            targetUrl: patch.target_url ?? d.targetUrl,
            redirectRules: keep<unknown>(patch.redirect_rules, d.redirectRules),
            testVariants: keep<unknown>(patch.test_variants, d.testVariants),
            fallbackUrl: keep(patch.fallback_url, d.fallbackUrl),
            webhookClicks: patch.webhook_clicks ?? d.webhookClicks,
            ogTitle: keep(patch.og_title, d.ogTitle),
            ogDescription: keep(patch.og_description, d.ogDescription),
            ogImageUrl: keep(patch.og_image_url, d.ogImageUrl)
          }
        }
        return next
      }
      case "markdown": {
        const body = yield* markdownSource(patch)
        const next: ResourceRecordOf<"markdown"> = {
          ...common,
          type: "markdown",
          data: { body: body ?? current.data.body }
        }
        return next
      }
      case "collection": {
        const next: ResourceRecordOf<"collection"> = {
          ...common,
          type: "collection",
          data: {
            // The items change through the collection routes only.
            ...current.data,
            layout: keep(patch.layout, current.data.layout),
            settings: keep<unknown>(patch.settings, current.data.settings)
          }
        }
        return next
      }
      case "notion": {
        const d = current.data
        const source = yield* notionSource(patch)
        const next: ResourceRecordOf<"notion"> = {
          ...common,
          type: "notion",
          data: {
            sourceUrl: source ?? d.sourceUrl,
            rootPageId: keep(patch.root_page_id, d.rootPageId),
            autoRefresh: patch.auto_refresh ?? d.autoRefresh,
            refreshIntervalSeconds: keep(patch.refresh_interval_seconds, d.refreshIntervalSeconds)
          }
        }
        return next
      }
      case "bio": {
        const d = current.data
        const next: ResourceRecordOf<"bio"> = {
          ...common,
          type: "bio",
          data: {
            // The profile's media and the pages change through the bio routes only.
            ...d,
            theme: keep(patch.theme, d.theme),
            settings: keep<unknown>(patch.settings, d.settings),
            rootPageSlug: keep(patch.root_page_slug, d.rootPageSlug),
            rootPageTitle: keep(patch.root_page_title, d.rootPageTitle)
          }
        }
        return next
      }
      case "file":
      case "image":
      case "artifact":
        // The stored bytes change only through their own routes; a patch changes the common fields.
        return makeResourceRecord(common, current)
    }
  })

/**
 * `PATCH /resources/{slug}`: changes only the fields sent. With `ifMatch` (X-Resource-If-Match or
 * If-Match) the resource must still be in that state (else ResourceChanged, 412), also when another
 * write wins the race between the read and the write. Without it a lost race is read again and
 * retried (LOST_RACE_TRIES): another writer's version is not the client's concern. A Markdown source
 * change saves the replaced source as a version.
 */
export const updateResource = (slug: string, patch: PatchResourceInput, ifMatch: string | undefined) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const ids = yield* IdGen
    const attempt = () =>
      Effect.gen(function* () {
        const current = yield* ownedBySlug(slug)
        // Checked at every round: after a lost race the resource moved, so a precondition fails here.
        if (ifMatch !== undefined && !etagMatches(ifMatch, current)) return yield* new ResourceChanged()
        const at = yield* now
        const next = yield* applyPatch(current, patch, at)
        const saveVersion =
          current.type === "markdown" && next.type === "markdown" && next.data.body !== current.data.body
            ? { id: yield* ids.uuidV7, body: current.data.body, createdAt: at }
            : undefined
        const outcome = yield* repo.update(principal.tenant, next, { saveVersion }).pipe(
          Effect.catchTags({
            ResourceSlugTaken: () => Effect.fail(new ResourceSlugInUse()),
            StorageQuotaReached: bytesOutOfPlace
          })
        )
        return outcome === "updated" ? Option.some(next) : Option.none()
      })
    return yield* retryOnStale(LOST_RACE_TRIES, attempt, () => new ResourceChanged())
  })

/** `DELETE /resources/{slug}`: soft delete; the public URL stops at once on every instance. */
export const deleteResource = (slug: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const current = yield* ownedBySlug(slug)
    const deleted = yield* repo.softDelete(principal.tenant, current.id, yield* now)
    if (!deleted) return yield* new ResourceNotFound()
    // The row is gone for good (its bytes already given back to the quota); its blobs go with it. A
    // failure here leaves unreachable bytes, not a broken resource, so it is logged, not answered.
    if (current.storedBytes > 0 || current.type === "file" || current.type === "image")
      yield* Effect.flatMap(Effect.service(BlobStore), (blobs) =>
        blobs.deletePrefix(resourceBlobPrefix(current))
      ).pipe(
        Effect.catchTag("StorageError", (e) =>
          Effect.logWarning("blobs of a deleted resource were not removed", e)
        )
      )
  })
