// Checking the blob store against the database: objects no row names (orphans: a crash between a
// blob write and its row's commit, a failed cleanup) and keys a row names with no object (missing).
// Both stream: the store is listed a page at a time and asked about in batches.
import { Clock, Effect, Option, Stream } from "effect"
import type { StorageError } from "./errors.js"
import { BlobReferences } from "./ports/blob-references.js"
import { type BlobListing, BlobStore } from "./ports/blob-store.js"

/** Keys asked about at once: one round trip to the database per this many listed objects. */
export const BLOB_CHECK_BATCH = 500

/** HEAD requests at once when looking for missing objects: overlaps S3 round trips, bounded. */
const HEAD_CONCURRENCY = 8

export interface Orphan extends BlobListing {
  /** Written longer ago than the grace: no request still in flight can be about to name it. */
  readonly pastGrace: boolean
}

/**
 * Every object no row names, with whether it is past `graceMs`. A blob is written before the row
 * that names it commits, so a young unreferenced object may be a request in flight: only the old
 * ones are orphans for sure.
 */
export const unreferencedBlobs = (
  graceMs: number
): Stream.Stream<Orphan, StorageError, BlobStore | BlobReferences> =>
  Stream.unwrap(
    Effect.gen(function* () {
      const blobs = yield* BlobStore
      const references = yield* BlobReferences
      return blobs.list().pipe(
        Stream.grouped(BLOB_CHECK_BATCH),
        Stream.mapEffect((batch) =>
          Effect.gen(function* () {
            const named = yield* references.referenced(batch.map((listed) => listed.key))
            const cutoff = (yield* Clock.currentTimeMillis) - graceMs
            return batch
              .filter((listed) => !named.has(listed.key))
              .map((listed) => ({ ...listed, pastGrace: listed.lastModified.getTime() <= cutoff }))
          })
        ),
        Stream.flattenIterable
      )
    })
  )

/** Every key a row names that has no object (each once). */
export const missingBlobs: Stream.Stream<string, StorageError, BlobStore | BlobReferences> = Stream.unwrap(
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const references = yield* BlobReferences
    // Only the missing keys are remembered (to say each once): few, unlike the referenced ones.
    const reported = new Set<string>()
    return references.all.pipe(
      Stream.mapEffect((key) => Effect.map(blobs.head(key), (found) => ({ key, found })), {
        concurrency: HEAD_CONCURRENCY
      }),
      Stream.filter(({ key, found }) => Option.isNone(found) && !reported.has(key)),
      Stream.map(({ key }) => {
        reported.add(key)
        return key
      })
    )
  })
)

/**
 * Deletes `key` unless a row names it now: asked again right before the delete, so a row that
 * named it since its batch was checked keeps it. True when it was deleted.
 */
export const deleteIfUnreferenced = (key: string) =>
  Effect.gen(function* () {
    const named = yield* Effect.flatMap(Effect.service(BlobReferences), (references) =>
      references.referenced([key])
    )
    if (named.has(key)) return false
    yield* Effect.flatMap(Effect.service(BlobStore), (blobs) => blobs.delete(key))
    return true
  })

/**
 * Deletes the orphans past `graceMs` and answers how many. Safe in several instances at once:
 * deleting an object twice is no error.
 */
export const deleteOrphanBlobs = (graceMs: number) =>
  Stream.runFoldEffect(
    Stream.filter(unreferencedBlobs(graceMs), (orphan) => orphan.pastGrace),
    () => 0,
    (deleted, orphan) =>
      Effect.map(deleteIfUnreferenced(orphan.key), (gone) => (gone ? deleted + 1 : deleted))
  )
