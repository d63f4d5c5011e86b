// The collection routes: add a copy of one of the owner's files or images, arrange the items (order,
// display names, captions) in one call, remove one. Each write is a CAS on the collection's row
// version; X-Collection-If-Match (when sent) must name the current item list, also when another
// write wins the race (412). A copy's bytes count against the quota in the write's transaction, and
// are deleted again when the write does not land.
import { Clock, Effect, Exit, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  CollectionFull,
  CollectionItemRepeated,
  CollectionOrderIncomplete,
  CollectionSourceBytesGone,
  CollectionSourceNotFound,
  CollectionSourceNotMedia,
  ResourceChanged,
  ResourceNotFound,
  type SharingFieldRefusal,
  StorageQuotaExceeded
} from "../errors.js"
import { UploadPolicy } from "../files/upload.js"
import { ResourceRepository } from "../ports/resources.js"
import { type CollectionItem, type ResourceRecord, resourceBlobPrefix } from "../resources/resource.js"
import { isResourceSlug } from "../resources/rules.js"
import { ownedOfType } from "../resources/use-cases.js"
import {
  type CollectionRecord,
  collectionEtagMatches,
  itemsOf,
  MAX_COLLECTION_ITEMS,
  withItems
} from "./collection.js"
import type { AddCollectionItemInput, ArrangeCollectionInput } from "./wire.js"
import { isUuid } from "../../kernel/ids.js"

/** A write that adds no bytes cannot be refused by the quota: a refusal would be a bug. */
const freesBytesOnly = () =>
  Effect.die(new Error("a collection write that adds no bytes was refused by the quota"))

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The caller's collection at `slug` (403 for another account's, 404 for none, 400 for another type). */
const ownedCollection = (slug: string) => ownedOfType(slug, "collection", "a collection")

/** The caller's file or image named by slug or id, for a copy. */
const ownedSource = (ref: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const found: Option.Option<ResourceRecord> = isUuid(ref)
      ? yield* repo.get(principal.tenant, ref.toLowerCase())
      : isResourceSlug(ref)
        ? yield* repo.getBySlug(principal.tenant, ref)
        : Option.none()
    if (Option.isNone(found)) return yield* new CollectionSourceNotFound()
    const r = found.value
    if (r.type !== "file" && r.type !== "image") return yield* new CollectionSourceNotMedia()
    return r
  })

/**
 * Writes `change(current)` over the collection with a CAS, re-reading after a lost race; `ifMatch`
 * must name the current item list at every round (else ResourceChanged).
 */
const writeCollection = (
  slug: string,
  ifMatch: string | undefined,
  change: (
    current: CollectionRecord,
    at: Date
  ) => Effect.Effect<CollectionRecord, SharingFieldRefusal | ResourceNotFound>,
  quotaBytes?: number,
  /** Set when the write has landed, even if an interruption ends the caller right after. */
  landed?: { done: boolean }
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const attempt = () =>
      Effect.gen(function* () {
        const current = yield* ownedCollection(slug)
        if (ifMatch !== undefined && !collectionEtagMatches(ifMatch, current))
          return yield* new ResourceChanged()
        const next = yield* change(current, yield* now)
        // The write and the mark that it landed are one uninterruptible step (see `landed`).
        const outcome = yield* Effect.uninterruptible(
          Effect.tap(repo.update(principal.tenant, next, { quotaBytes }), (o) =>
            Effect.sync(() => {
              if (o === "updated" && landed !== undefined) landed.done = true
            })
          )
        ).pipe(
          Effect.catchTags({
            ResourceSlugTaken: () => Effect.die(new Error("a collection item write changed the slug")),
            StorageQuotaReached: () => Effect.fail(new StorageQuotaExceeded())
          })
        )
        return outcome === "updated" ? Option.some({ before: current, after: next }) : Option.none()
      })
    return yield* retryOnStale(LOST_RACE_TRIES, attempt, () => new ResourceChanged())
  })

/** `POST /resources/{slug}/collection/items`: a copy of one of the caller's files or images, at the end. */
export const addCollectionItem = (slug: string, input: AddCollectionItemInput, ifMatch: string | undefined) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const blobs = yield* BlobStore
    const ids = yield* IdGen
    const policy = yield* UploadPolicy
    const collection = yield* ownedCollection(slug)
    if (ifMatch !== undefined && !collectionEtagMatches(ifMatch, collection))
      return yield* new ResourceChanged()
    if (itemsOf(collection).length >= MAX_COLLECTION_ITEMS)
      return yield* new CollectionFull({ maxItems: MAX_COLLECTION_ITEMS })
    const source = yield* ownedSource(input.resource)
    const used = yield* repo.storageUsed(principal.tenant)
    if (used + source.data.size > policy.quotaBytes) return yield* new StorageQuotaExceeded()
    const itemId = yield* ids.uuidV7
    const key = `${resourceBlobPrefix(collection)}items/${itemId}`
    const landed = { done: false }
    const copy = Effect.gen(function* () {
      const opened = yield* blobs.openRead(source.data.blobKey)
      if (Option.isNone(opened)) return yield* new CollectionSourceBytesGone()
      yield* blobs
        .putStream(key, opened.value.body, {
          contentType: source.data.contentType,
          maxBytes: source.data.size
        })
        .pipe(Effect.catchTag("BlobTooLarge", () => Effect.die(new Error("a stored file grew while copied"))))
      const item: CollectionItem = {
        id: itemId,
        kind: source.type,
        file: { ...source.data, blobKey: key },
        displayName: input.display_name ?? null,
        caption: input.caption ?? null,
        sourceResourceId: source.id,
        addedAt: (yield* now).toISOString()
      }
      const written = yield* writeCollection(
        slug,
        ifMatch,
        (current, at) =>
          itemsOf(current).length >= MAX_COLLECTION_ITEMS
            ? Effect.fail(new CollectionFull({ maxItems: MAX_COLLECTION_ITEMS }))
            : Effect.succeed(withItems(current, [...itemsOf(current), item], at)),
        policy.quotaBytes,
        landed
      )
      return { collection: written.after, item }
    })
    // A copy whose write did not land is deleted (the collection never named it).
    return yield* copy.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed.done ? Effect.void : Effect.ignore(blobs.delete(key))
      )
    )
  })

/** `PATCH /resources/{slug}/collection`: every item named once, in the new order, names and captions set. */
export const arrangeCollection = (slug: string, input: ArrangeCollectionInput, ifMatch: string | undefined) =>
  Effect.map(
    writeCollection(slug, ifMatch, (current, at) => {
      const byId = new Map(itemsOf(current).map((i) => [i.id, i]))
      const named = new Set(input.items.map((i) => i.id))
      if (named.size !== input.items.length) return Effect.fail(new CollectionItemRepeated())
      if (named.size !== byId.size || input.items.some((i) => !byId.has(i.id)))
        return Effect.fail(new CollectionOrderIncomplete())
      const items = input.items.flatMap((entry) => {
        const item = byId.get(entry.id)
        if (item === undefined) return []
        return [
          {
            ...item,
            displayName: entry.display_name === undefined ? item.displayName : entry.display_name,
            caption: entry.caption === undefined ? item.caption : entry.caption
          }
        ]
      })
      return Effect.succeed(withItems(current, items, at))
    }).pipe(Effect.catchTag("StorageQuotaExceeded", freesBytesOnly)),
    (written) => written.after
  )

/** `DELETE /resources/{slug}/collection/items/{itemID}`: the item and its copy's bytes. */
export const removeCollectionItem = (slug: string, itemId: string, ifMatch: string | undefined) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const written = yield* writeCollection(slug, ifMatch, (current, at) => {
      const items = itemsOf(current)
      return items.some((i) => i.id === itemId)
        ? Effect.succeed(
            withItems(
              current,
              items.filter((i) => i.id !== itemId),
              at
            )
          )
        : Effect.fail(new ResourceNotFound())
    }).pipe(Effect.catchTag("StorageQuotaExceeded", freesBytesOnly))
    const removed = itemsOf(written.before).find((i) => i.id === itemId)
    // The row no longer names the copy; a failed delete leaves unreachable bytes, logged.
    if (removed !== undefined)
      yield* blobs
        .delete(removed.file.blobKey)
        .pipe(
          Effect.catchTag("StorageError", (e) =>
            Effect.logWarning("a removed collection item's bytes were not deleted", e)
          )
        )
    return written.after
  })
