// What every BlobStore adapter does the same way with streamed bodies: count the bytes as they pass
// and stop one past the limit, and clamp a requested range to the object.
import { BlobTooLarge, type BlobRange, type StorageError } from "@folio/domain"
import { type Array as Arr, Effect, Stream } from "effect"

/**
 * Runs `onChunks` for each array of chunks of `body` in order (as the stream delivers them, so a
 * store can write an array at once) and answers the total, failing with BlobTooLarge as soon as
 * the total passes `maxBytes` (the array that passes it is not handed on).
 */
export const eachChunkWithin = <E>(
  body: Stream.Stream<Uint8Array, E>,
  maxBytes: number,
  onChunks: (chunks: Arr.NonEmptyReadonlyArray<Uint8Array>) => Effect.Effect<void, StorageError>
): Effect.Effect<number, E | BlobTooLarge | StorageError> =>
  Effect.suspend(() => {
    let size = 0
    return Stream.runForEachArray(body, (chunks): Effect.Effect<void, BlobTooLarge | StorageError> => {
      for (const chunk of chunks) size += chunk.byteLength
      return size > maxBytes ? Effect.fail(new BlobTooLarge({ maxBytes })) : onChunks(chunks)
    }).pipe(Effect.map(() => size))
  })

/** The inclusive byte span to read of an object of `size` bytes; undefined when nothing is in it. */
export const spanOf = (size: number, range: BlobRange | undefined): BlobRange | undefined => {
  if (range === undefined) return size === 0 ? undefined : { start: 0, end: size - 1 }
  const end = Math.min(range.end, size - 1)
  return range.start > end ? undefined : { start: range.start, end }
}
