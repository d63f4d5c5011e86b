// In-memory BlobStore: bytes in a Map, downloads through the same locally signed URLs as the
// filesystem store (served by the app's /blobs route).
import { BlobStore, isValidBlobKey, isValidBlobPrefix, signedBlobPath, StorageError } from "@folio/domain"
import { Clock, Effect, Layer, Option, Stream } from "effect"
import { eachChunkWithin, spanOf } from "./streams.js"

export interface LocalSigningOptions {
  readonly publicOrigin: string
  readonly signingSecret: string
}

export const invalidKey = () => new StorageError({ message: "invalid blob key" })

export const checkKey = (key: string) => (isValidBlobKey(key) ? Effect.void : Effect.fail(invalidKey()))

export const checkPrefix = (prefix: string) =>
  isValidBlobPrefix(prefix) ? Effect.void : Effect.fail(invalidKey())

/** A signed URL for `key`, valid for `expiresInSeconds` from the Effect clock. */
export const localSignedUrl = (
  options: LocalSigningOptions,
  key: string,
  expiresInSeconds: number,
  filename?: string
) =>
  Effect.map(Clock.currentTimeMillis, (ms) => {
    const expiresAt = Math.floor(ms / 1000) + Math.max(1, Math.floor(expiresInSeconds))
    return `${options.publicOrigin}${signedBlobPath({ key, expiresAt, filename }, options.signingSecret)}`
  })

export const MemoryBlobStoreLive = (options: LocalSigningOptions) =>
  Layer.sync(BlobStore, () => {
    const objects = new Map<string, { bytes: Uint8Array; contentType: string; modifiedAt: number }>()
    return BlobStore.of({
      put: (key, object) =>
        Effect.andThen(
          checkKey(key),
          Effect.map(
            Clock.currentTimeMillis,
            (modifiedAt) =>
              void objects.set(key, {
                bytes: Uint8Array.from(object.bytes),
                contentType: object.contentType,
                modifiedAt
              })
          )
        ),
      putStream: (key, body, { contentType, maxBytes }) =>
        Effect.andThen(
          checkKey(key),
          Effect.gen(function* () {
            const chunks: Array<Uint8Array> = []
            const size = yield* eachChunkWithin(body, maxBytes, (arrived) =>
              Effect.sync(() => {
                for (const chunk of arrived) chunks.push(Uint8Array.from(chunk))
              })
            )
            const bytes = new Uint8Array(size)
            let at = 0
            for (const chunk of chunks) {
              bytes.set(chunk, at)
              at += chunk.byteLength
            }
            objects.set(key, { bytes, contentType, modifiedAt: yield* Clock.currentTimeMillis })
            return { size }
          })
        ),
      openRead: (key, range) =>
        Effect.andThen(
          checkKey(key),
          Effect.sync(() =>
            Option.map(Option.fromNullishOr(objects.get(key)), (o) => {
              const span = spanOf(o.bytes.byteLength, range)
              return {
                size: o.bytes.byteLength,
                contentType: o.contentType,
                body:
                  span === undefined
                    ? Stream.empty
                    : Stream.make(Uint8Array.from(o.bytes.subarray(span.start, span.end + 1)))
              }
            })
          )
        ),
      get: (key) =>
        Effect.andThen(
          checkKey(key),
          Effect.sync(() =>
            Option.map(Option.fromNullishOr(objects.get(key)), (o) => ({
              bytes: Uint8Array.from(o.bytes),
              contentType: o.contentType
            }))
          )
        ),
      head: (key) =>
        Effect.andThen(
          checkKey(key),
          Effect.sync(() =>
            Option.map(Option.fromNullishOr(objects.get(key)), (o) => ({
              size: o.bytes.byteLength,
              contentType: o.contentType
            }))
          )
        ),
      delete: (key) =>
        Effect.andThen(
          checkKey(key),
          Effect.sync(() => void objects.delete(key))
        ),
      move: (from, to) =>
        Effect.andThen(
          Effect.andThen(checkKey(from), checkKey(to)),
          Effect.sync(() => {
            const object = objects.get(from)
            if (object === undefined) return false
            objects.set(to, object)
            if (to !== from) objects.delete(from)
            return true
          })
        ),
      deletePrefix: (prefix) =>
        Effect.andThen(
          checkPrefix(prefix),
          Effect.sync(() => {
            for (const key of [...objects.keys()]) if (key.startsWith(prefix)) objects.delete(key)
          })
        ),
      // The keys as they are now; a page of them at a time, as the other stores give them.
      list: (prefix) =>
        Stream.unwrap(
          Effect.map(prefix === undefined ? Effect.void : checkPrefix(prefix), () =>
            Stream.fromIterable(
              [...objects.entries()]
                .filter(([key]) => prefix === undefined || key.startsWith(prefix))
                .map(([key, o]) => ({ key, size: o.bytes.byteLength, lastModified: new Date(o.modifiedAt) }))
            )
          )
        ),
      signedUrl: (key, { expiresInSeconds, filename }) =>
        Effect.andThen(checkKey(key), localSignedUrl(options, key, expiresInSeconds, filename))
    })
  })
