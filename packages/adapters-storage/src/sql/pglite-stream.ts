// The embedded database's connections, in process: each one a Duplex that speaks the PostgreSQL
// wire protocol to PGlite directly, so @effect/sql-pg reaches it with no socket server in between.
import { Duplex } from "node:stream"
import type { PGlite } from "@electric-sql/pglite"

// Request codes a client sends in place of a startup message (PostgreSQL protocol, section 55.7).
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104
const CANCEL_REQUEST = 80877102
const TERMINATE = 0x58 // 'X'

/**
 * A connection factory for sql-pg's `stream` option. PGlite is one backend session, so:
 * - work from every connection runs in arrival order, the messages of one write (a statement's
 *   Bind, Execute and Sync) in one call into PGlite, which runs every message of its input;
 * - a new connection starts from a clean session (whatever a dropped connection left open is rolled
 *   back, its prepared statements deallocated), as a new backend would;
 * - a cancel request closes at once, as a server does: a statement in PGlite cannot be stopped
 *   midway, so the client simply waits for it to end. (Behind a socket server, cancel connections
 *   that were never closed used up its slots, and the client could not reconnect.)
 */
export const pgliteConnections = (
  db: PGlite,
  /** Told when a batch of protocol messages (a statement) is sent; what it returns, when it is answered. */
  observe?: () => () => void
): (() => Duplex) => {
  let queue: Promise<unknown> = Promise.resolve()
  const serially = (task: () => Promise<void>): Promise<void> => {
    const next = queue.then(task, task)
    queue = next.catch(() => undefined)
    return next
  }
  let sessions = 0

  return () => {
    let pending: Buffer = Buffer.alloc(0)
    let started = false
    const connection = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
        // PGlite answers a startup message only when it comes alone: it is a batch of its own, and
        // every other message of the write goes in one batch.
        const batches: Array<Array<Uint8Array>> = [[]]
        let reset = false
        let close = false
        while (!close) {
          if (!started) {
            if (pending.length < 8) break
            const length = pending.readInt32BE(0)
            if (pending.length < length) break
            const code = pending.readInt32BE(4)
            const message = pending.subarray(0, length)
            pending = pending.subarray(length)
            if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
              connection.push(Buffer.from("N"))
              continue
            }
            if (code === CANCEL_REQUEST) {
              close = true
              break
            }
            started = true
            reset = sessions++ > 0
            batches.push([message], [])
          } else {
            if (pending.length < 5) break
            const length = 1 + pending.readInt32BE(1)
            if (pending.length < length) break
            const message = pending.subarray(0, length)
            pending = pending.subarray(length)
            if (message[0] === TERMINATE) {
              close = true
              break
            }
            batches[batches.length - 1]?.push(message)
          }
        }
        const sent = batches
          .filter((b) => b.length > 0)
          .map((b) => (b.length === 1 ? (b[0] as Uint8Array) : Buffer.concat(b)))
        const answered = sent.length > 0 ? observe?.() : undefined
        serially(async () => {
          if (reset) {
            // Not inside runExclusive: exec takes PGlite's own lock.
            await db.exec("rollback")
            await db.exec("discard all")
          }
          for (const batch of sent) {
            await db.runExclusive(() =>
              db.execProtocolRawStream(batch, {
                onRawData: (data) => {
                  connection.push(Buffer.from(data))
                }
              })
            )
          }
        }).then(
          () => {
            answered?.()
            callback()
            // What a server does after a cancel request or a Terminate: hang up.
            if (close) connection.destroy()
          },
          (error: unknown) => {
            answered?.()
            callback(error instanceof Error ? error : new Error(String(error)))
          }
        )
      },
      final(callback) {
        connection.push(null)
        callback()
      }
    })
    return connection
  }
}
