// `npm run cli -- blobs check [--delete-orphans]`: the blob store checked against the database.
// Prints each missing key (a row names it, no object) and each orphan (an object no row names,
// older than BLOB_ORPHAN_GRACE_HOURS), then the counts; exits 1 when something is missing.
import { deleteIfUnreferenced, missingBlobs, unreferencedBlobs } from "@folio/domain"
import { Console, Effect, Stream } from "effect"

export interface BlobsCheckOptions {
  /** Younger unreferenced objects may be a request in flight: counted, never called orphans. */
  readonly graceMs: number
  readonly deleteOrphans: boolean
}

export interface BlobsCheckReport {
  readonly missing: number
  readonly orphans: number
  readonly deleted: number
  readonly recent: number
}

/** Runs the check, printing as it goes (one line per key, tab-separated: scripts can cut it). */
export const blobsCheck = (options: BlobsCheckOptions) =>
  Effect.gen(function* () {
    let missing = 0
    yield* Stream.runForEach(missingBlobs, (key) =>
      Effect.andThen(
        Effect.sync(() => {
          missing += 1
        }),
        Console.log(`missing\t${key}`)
      )
    )
    let orphans = 0
    let deleted = 0
    let recent = 0
    yield* Stream.runForEach(unreferencedBlobs(options.graceMs), (orphan) =>
      Effect.gen(function* () {
        if (!orphan.pastGrace) {
          recent += 1
          return
        }
        orphans += 1
        const gone = options.deleteOrphans ? yield* deleteIfUnreferenced(orphan.key) : false
        if (gone) deleted += 1
        yield* Console.log(
          `orphan\t${orphan.key}\t${orphan.size}\t${orphan.lastModified.toISOString()}${gone ? "\tdeleted" : ""}`
        )
      })
    )
    const hours = options.graceMs / 3_600_000
    yield* Console.log(
      `${missing} missing, ${orphans} orphaned (older than ${hours} hour${hours === 1 ? "" : "s"})` +
        (options.deleteOrphans ? `, ${deleted} deleted` : "") +
        `, ${recent} unreferenced but younger (left alone: a write may be in flight)`
    )
    return { missing, orphans, deleted, recent } satisfies BlobsCheckReport
  })
