// A multipart file part's bytes, read as the parser hands them over. Node's parser gives each file
// part as a Readable; effect's `part.content` reads it with `read()`, which joins whatever is
// buffered into one new Buffer each time, so every uploaded byte was copied once more, and the
// copies' external memory drove a mark-compact of the whole heap every ~8 MB uploaded (decision
// 0029). Here the part's chunks are taken as they are pushed (no copy) and handed on in the arrays
// they gathered in while the store was writing, which the store then writes at once.
import { finished, Readable } from "node:stream"
import { fileToReadable } from "@effect/platform-node/NodeMultipart"
import { Cause, Channel, Effect, Exit, Latch, Scope, Stream } from "effect"
import { Multipart } from "effect/http"

/**
 * Bytes taken ahead of the store before the part is paused: then the parser stops, and the request
 * with it, until the store has caught up, so an upload holds at most about this much in memory.
 */
const READ_AHEAD_BYTES = 512 * 1024

/** The chunks of `readable` as pushed, in arrays of what arrived since the last pull. */
const pushedChunks = (readable: Readable): Stream.Stream<Uint8Array, Multipart.MultipartError> =>
  Stream.fromChannel(
    Channel.fromTransform((_, scope) => {
      let queue: Array<Uint8Array> = []
      let queued = 0
      let ended: Exit.Exit<never, Multipart.MultipartError | Cause.Done> | undefined
      const arrived = Latch.makeUnsafe(false)
      const onData = (chunk: Uint8Array) => {
        queue.push(chunk)
        queued += chunk.byteLength
        if (queued >= READ_AHEAD_BYTES) readable.pause()
        arrived.openUnsafe()
      }
      const cleanup = finished(readable, { readable: true, writable: false }, (error) => {
        ended ??= error
          ? Exit.fail(Multipart.MultipartError.fromReason("InternalError", error))
          : Exit.fail(Cause.Done())
        arrived.openUnsafe()
      })
      readable.on("data", onData)
      type Pulled = Effect.Effect<
        readonly [Uint8Array, ...Array<Uint8Array>],
        Multipart.MultipartError | Cause.Done
      >
      const next = (): Pulled => {
        if (queue.length > 0) {
          const chunks = queue as [Uint8Array, ...Array<Uint8Array>]
          queue = []
          queued = 0
          if (readable.isPaused()) readable.resume()
          return Effect.succeed(chunks)
        }
        if (ended !== undefined) return ended
        arrived.closeUnsafe()
        return Effect.flatMap(arrived.await, next)
      }
      const pull: Pulled = Effect.suspend(next)
      return Effect.as(
        Scope.addFinalizer(
          scope,
          Effect.sync(() => {
            readable.off("data", onData)
            cleanup()
            // A part left unread (the upload refused midway) is dropped, as effect's reader does.
            if (!readable.readableEnded) readable.destroy()
          })
        ),
        pull
      )
    })
  )

/**
 * The bytes of a file part: pushed chunks for Node's parser (the server's), the part's own stream
 * for any other.
 */
export const fileContent = (part: Multipart.File): Stream.Stream<Uint8Array, Multipart.MultipartError> => {
  const readable: unknown = fileToReadable(part)
  return readable instanceof Readable ? pushedChunks(readable) : part.content
}
