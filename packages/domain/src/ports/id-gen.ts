// Port: identifier generation. A port (not a global) so tests can make ids deterministic.
import { Context, Effect, Layer } from "effect"
import { uuidV4FromBytes, uuidV7FromParts } from "../kernel/ids.js"

export interface IdGenService {
  /** Random UUID v4, for ids that must reveal nothing (secrets, assignments). */
  readonly uuid: Effect.Effect<string>
  /** Time-ordered UUID v7, for rows listed in creation order. */
  readonly uuidV7: Effect.Effect<string>
  /** `n` cryptographically random bytes. */
  readonly randomBytes: (n: number) => Effect.Effect<Uint8Array>
}

export class IdGen extends Context.Tag("@folio/domain/IdGen")<IdGen, IdGenService>() {}

const webRandom = (n: number): Uint8Array => globalThis.crypto.getRandomValues(new Uint8Array(n))

/** Ids from the platform's Web Crypto random source and the Effect clock. */
export const IdGenLive = Layer.succeed(IdGen, {
  uuid: Effect.sync(() => uuidV4FromBytes(webRandom(16))),
  uuidV7: Effect.map(
    Effect.clockWith((clock) => clock.currentTimeMillis),
    (ms) => uuidV7FromParts(ms, webRandom(16))
  ),
  randomBytes: (n) => Effect.sync(() => webRandom(n))
})

/** Deterministic ids for tests: a counter rendered as UUIDs, bytes from a seeded sequence. */
export const IdGenSequential = (seed = 1): Layer.Layer<IdGen> =>
  Layer.sync(IdGen, () => {
    let n = seed
    const next = () => {
      const b = new Uint8Array(16)
      let v = n++
      for (let i = 15; i >= 8; i--) {
        b[i] = v % 256
        v = Math.floor(v / 256)
      }
      return b
    }
    return {
      uuid: Effect.sync(() => uuidV4FromBytes(next())),
      uuidV7: Effect.map(
        Effect.clockWith((clock) => clock.currentTimeMillis),
        (ms) => uuidV7FromParts(ms, next())
      ),
      randomBytes: (size) =>
        Effect.sync(() => {
          const out = new Uint8Array(size)
          for (let i = 0; i < size; i++) out[i] = (n * 31 + i * 7) % 256
          n++
          return out
        })
    }
  })
