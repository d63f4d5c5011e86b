// Filesystem BlobStore (the default): objects under a root directory, written atomically (temp file
// + rename) with a JSON sidecar for the content type; keys can never leave the root. A streamed
// write goes to its temp file as it arrives (the chunks that came together in one writev), so a
// large upload never sits in memory.
import { createReadStream } from "node:fs"
import {
  type FileHandle,
  mkdir,
  open,
  opendir,
  readFile,
  rename,
  rm,
  stat,
  writeFile
} from "node:fs/promises"
import { dirname, join, resolve, sep } from "node:path"
import { type BlobListing, BlobStore, StorageError } from "@folio/domain"
import { Effect, Layer, Option, Stream } from "effect"
import { checkKey, checkPrefix, type LocalSigningOptions, localSignedUrl } from "./memory.js"
import { eachChunkWithin, spanOf } from "./streams.js"

export interface FsBlobStoreOptions extends LocalSigningOptions {
  readonly root: string
}

const META = ".meta.json"

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT"

/**
 * The files under `dir` (keys relative to `root`), one directory open at a time, the type files
 * left out. A temp file a crash left behind (a write cut off before its rename) is listed as what
 * it is, a file no row names: the orphan sweep removes it after the grace like any orphan, while a
 * write in flight, younger than the grace, is left alone.
 */
async function* walk(root: string, dir: string): AsyncGenerator<BlobListing> {
  let handle: Awaited<ReturnType<typeof opendir>>
  try {
    handle = await opendir(dir)
  } catch (error) {
    if (isMissing(error)) return
    throw error
  }
  for await (const entry of handle) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(root, path)
    else if (entry.isFile() && !entry.name.endsWith(META)) {
      try {
        const info = await stat(path)
        yield {
          key: path
            .slice(root.length + 1)
            .split(sep)
            .join("/"),
          size: info.size,
          lastModified: info.mtime
        }
      } catch (error) {
        // Deleted or renamed since the directory was read: not there, so not listed.
        if (!isMissing(error)) throw error
      }
    }
  }
}

export const FsBlobStoreLive = (options: FsBlobStoreOptions) =>
  Layer.sync(BlobStore, () => {
    const root = resolve(options.root)
    const pathOf = (key: string) => {
      const path = resolve(root, ...key.split("/"))
      // Belt and braces: isValidBlobKey already rules out "..", absolute keys and empty segments.
      if (!path.startsWith(root + sep)) throw new Error("blob key escapes the root")
      return path
    }
    const attempt = <A>(message: string, run: () => Promise<A>) =>
      Effect.tryPromise({ try: run, catch: (cause) => new StorageError({ message, cause }) })
    const tempOf = (path: string) =>
      `${path}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}.tmp`
    /**
     * The chunks that arrived together, written at the handle's position in one call (a `writev`,
     * which libuv repeats until every byte is written): one trip to the thread pool for the lot
     * instead of one a chunk, which was the upload's pace (decision 0029).
     */
    const writeAll = async (handle: FileHandle, chunks: ReadonlyArray<Uint8Array>) => {
      const expected = chunks.reduce((n, chunk) => n + chunk.byteLength, 0)
      const { bytesWritten } = await handle.writev(chunks)
      if (bytesWritten !== expected) throw new Error("short write")
    }
    /** Moves a finished temp file (and its content type) into place: readers see old or new, never half. */
    const commit = async (tmp: string, path: string, contentType: string) => {
      await writeFile(`${tmp}${META}`, JSON.stringify({ contentType }))
      await rename(`${tmp}${META}`, `${path}${META}`)
      await rename(tmp, path)
    }

    return BlobStore.of({
      put: (key, object) =>
        Effect.andThen(
          checkKey(key),
          attempt("cannot write blob", async () => {
            const path = pathOf(key)
            await mkdir(dirname(path), { recursive: true })
            const tmp = tempOf(path)
            await writeFile(tmp, object.bytes)
            await commit(tmp, path, object.contentType)
          })
        ),
      putStream: (key, body, { contentType, maxBytes }) =>
        Effect.andThen(
          checkKey(key),
          Effect.gen(function* () {
            const path = yield* attempt("cannot write blob", async () => {
              const at = pathOf(key)
              await mkdir(dirname(at), { recursive: true })
              return at
            })
            const tmp = tempOf(path)
            const size = yield* Effect.acquireUseRelease(
              attempt("cannot write blob", () => open(tmp, "w")),
              (handle) =>
                eachChunkWithin(body, maxBytes, (chunks) =>
                  attempt("cannot write blob", () => writeAll(handle, chunks))
                ),
              (handle) => Effect.ignore(attempt("cannot close blob", () => handle.close()))
            ).pipe(
              Effect.onError(() =>
                Effect.ignore(attempt("cannot remove blob", () => rm(tmp, { force: true })))
              )
            )
            yield* attempt("cannot write blob", () => commit(tmp, path, contentType)).pipe(
              // A commit that fails (a full disk writing the type) leaves no temp file behind.
              Effect.onError(() =>
                Effect.ignore(
                  attempt("cannot remove blob", async () => {
                    await rm(tmp, { force: true })
                    await rm(`${tmp}${META}`, { force: true })
                  })
                )
              )
            )
            return { size }
          })
        ),
      openRead: (key, range) =>
        Effect.andThen(
          checkKey(key),
          attempt("cannot read blob", async () => {
            const path = pathOf(key)
            try {
              const [info, meta] = await Promise.all([stat(path), readFile(`${path}${META}`, "utf8")])
              const { contentType } = JSON.parse(meta) as { contentType: string }
              const span = spanOf(info.size, range)
              const body =
                span === undefined
                  ? Stream.empty
                  : // Opened when the body is read, not before: a body never read (a HEAD, a client
                    // gone before the first byte) holds no file descriptor.
                    Stream.suspend(() =>
                      Stream.fromAsyncIterable(
                        createReadStream(path, {
                          start: span.start,
                          end: span.end,
                          highWaterMark: 64 * 1024
                        }),
                        (cause) => new StorageError({ message: "cannot read blob", cause })
                      )
                    )
              return Option.some({
                size: info.size,
                contentType,
                body: body as Stream.Stream<Uint8Array, StorageError>
              })
            } catch (error) {
              if (isMissing(error)) return Option.none()
              throw error
            }
          })
        ),
      get: (key) =>
        Effect.andThen(
          checkKey(key),
          attempt("cannot read blob", async () => {
            const path = pathOf(key)
            try {
              const [bytes, meta] = await Promise.all([readFile(path), readFile(`${path}${META}`, "utf8")])
              const { contentType } = JSON.parse(meta) as { contentType: string }
              return Option.some({
                bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
                contentType
              })
            } catch (error) {
              if (isMissing(error)) return Option.none()
              throw error
            }
          })
        ),
      head: (key) =>
        Effect.andThen(
          checkKey(key),
          attempt("cannot stat blob", async () => {
            const path = pathOf(key)
            try {
              const [info, meta] = await Promise.all([stat(path), readFile(`${path}${META}`, "utf8")])
              const { contentType } = JSON.parse(meta) as { contentType: string }
              return Option.some({ size: info.size, contentType })
            } catch (error) {
              if (isMissing(error)) return Option.none()
              throw error
            }
          })
        ),
      delete: (key) =>
        Effect.andThen(
          checkKey(key),
          attempt("cannot delete blob", async () => {
            const path = pathOf(key)
            await rm(path, { force: true })
            await rm(`${path}${META}`, { force: true })
          })
        ),
      // A rename within the root: atomic, and the type file moves with it.
      move: (from, to) =>
        Effect.andThen(
          Effect.andThen(checkKey(from), checkKey(to)),
          attempt("cannot move blob", async () => {
            const source = pathOf(from)
            const target = pathOf(to)
            await mkdir(dirname(target), { recursive: true })
            try {
              await rename(`${source}${META}`, `${target}${META}`)
            } catch (error) {
              if (isMissing(error)) return false
              throw error
            }
            await rename(source, target)
            return true
          })
        ),
      // A prefix is a folder here: removing it removes every object (and temp file) under it.
      deletePrefix: (prefix) =>
        Effect.andThen(
          checkPrefix(prefix),
          attempt("cannot delete blobs", () =>
            rm(pathOf(prefix.slice(0, -1)), { recursive: true, force: true })
          )
        ),
      list: (prefix) =>
        Stream.unwrap(
          Effect.map(prefix === undefined ? Effect.void : checkPrefix(prefix), () =>
            Stream.fromAsyncIterable(
              walk(root, prefix === undefined ? root : pathOf(prefix.slice(0, -1))),
              (cause) => new StorageError({ message: "cannot list blobs", cause })
            )
          )
        ),
      signedUrl: (key, { expiresInSeconds, filename }) =>
        Effect.andThen(checkKey(key), localSignedUrl(options, key, expiresInSeconds, filename))
    })
  })
