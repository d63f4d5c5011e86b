// ArtifactArchives over yauzl (a well-kept ZIP reader that reads the central directory, inflates one
// entry at a time as it is read, and checks each entry's bytes against its declared size while
// inflating). The archive streams to a temp file first (bounded by the ZIP limit), so memory holds
// one chunk, not the archive. Refused as declared: encryption, unknown compression, too many files,
// a file or the site over its limit, an expansion ratio of a zip bomb; and while inflating, any
// entry that yields more bytes than it declared.
import { createWriteStream } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import {
  type ArchiveEntry,
  ArtifactArchiveInvalid,
  ArtifactArchives,
  ArtifactPathInvalid,
  ArtifactTooLarge,
  ArtifactTooManyFiles,
  StorageError
} from "@folio/domain"
import { Effect, Layer, Stream } from "effect"
import yauzl from "yauzl"

/** Past this ratio of inflated to stored bytes (for an entry over 1 MiB) an archive is a bomb. */
export const MAX_EXPANSION_RATIO = 200
const RATIO_FLOOR_BYTES = 1024 * 1024

/** yauzl's complaints about entry names (their text holds the name, which is never echoed). */
const NAME_PROBLEM = /^(invalid characters in fileName|absolute path|invalid relative path)/

const damaged = () => new ArtifactArchiveInvalid({ problem: "damaged" })

const storage = (message: string) => (cause: unknown) => new StorageError({ message, cause })

export const YauzlArtifactArchivesLive = Layer.succeed(
  ArtifactArchives,
  ArtifactArchives.of({
    open: (archive, limits) =>
      Effect.gen(function* () {
        const dir = yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () => mkdtemp(join(tmpdir(), "folio-zip-")),
            catch: storage("cannot hold the archive")
          }),
          (path) => Effect.promise(() => rm(path, { recursive: true, force: true }))
        )
        const file = join(dir, "archive.zip")
        // The archive to disk, one chunk at a time, refused one byte past the ZIP limit.
        const out = createWriteStream(file)
        let size = 0
        yield* Stream.runForEach(archive, (chunk): Effect.Effect<void, ArtifactTooLarge | StorageError> => {
          size += chunk.byteLength
          if (size > limits.zipBytes)
            return Effect.fail(new ArtifactTooLarge({ over: "archive", maxBytes: limits.zipBytes }))
          return Effect.tryPromise({
            try: () =>
              new Promise<void>((resolve, reject) =>
                out.write(chunk, (error) =>
                  error === null || error === undefined ? resolve() : reject(error)
                )
              ),
            catch: storage("cannot hold the archive")
          })
        }).pipe(
          Effect.ensuring(Effect.promise(() => new Promise<void>((resolve) => out.end(() => resolve()))))
        )
        const zip = yield* Effect.acquireRelease(
          Effect.tryPromise({
            try: () =>
              // strictFileNames: names are read as stored. Without it yauzl turns `a\b` into `a/b`,
              // and a path is refused, never rewritten; with it a backslash is its own refusal.
              yauzl.openPromise(file, {
                lazyEntries: true,
                autoClose: false,
                validateEntrySizes: true,
                strictFileNames: true
              }),
            catch: damaged
          }),
          (z) => Effect.sync(() => z.close())
        )
        const entries: Array<ArchiveEntry> = []
        let total = 0
        const listed = Effect.tryPromise({
          try: async () => {
            const all: Array<yauzl.Entry> = []
            for await (const entry of zip.eachEntry()) all.push(entry)
            return all
          },
          catch: (cause) =>
            cause instanceof Error && NAME_PROBLEM.test(cause.message)
              ? new ArtifactPathInvalid({ problem: "archive_entry_escapes" })
              : damaged()
        })
        for (const entry of yield* listed) {
          if (entry.fileName.endsWith("/")) continue
          if ((entry.generalPurposeBitFlag & 0x1) !== 0)
            return yield* new ArtifactArchiveInvalid({ problem: "encrypted" })
          if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8)
            return yield* new ArtifactArchiveInvalid({ problem: "compression" })
          if (entries.length + 1 > limits.files)
            return yield* new ArtifactTooManyFiles({ maxFiles: limits.files })
          if (entry.uncompressedSize > limits.fileBytes)
            return yield* new ArtifactTooLarge({ over: "file", maxBytes: limits.fileBytes })
          total += entry.uncompressedSize
          if (total > limits.siteBytes)
            return yield* new ArtifactTooLarge({ over: "site", maxBytes: limits.siteBytes })
          if (
            entry.uncompressedSize > RATIO_FLOOR_BYTES &&
            entry.uncompressedSize > MAX_EXPANSION_RATIO * Math.max(1, entry.compressedSize)
          )
            return yield* new ArtifactArchiveInvalid({ problem: "expands_too_much" })
          entries.push({
            path: entry.fileName,
            size: entry.uncompressedSize,
            read: () =>
              Stream.unwrap(
                Effect.map(
                  Effect.tryPromise({ try: () => zip.openReadStreamPromise(entry), catch: damaged }),
                  (readable) =>
                    // yauzl fails the stream when an entry inflates past its declared size (or its
                    // CRC is wrong): the bytes stop there.
                    Stream.fromAsyncIterable(readable as AsyncIterable<Uint8Array>, damaged)
                )
              )
          })
        }
        return entries
      })
  })
)
