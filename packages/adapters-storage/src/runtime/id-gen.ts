// The IdGen port over the platform's cryptographic random source and the Effect clock; the UUID
// layouts themselves are the domain's (kernel/ids.ts).
import { randomFillSync } from "node:crypto"
import { IdGen, uuidV4FromBytes, uuidV7FromParts } from "@folio/domain"
import { Effect, Layer } from "effect"

const randomBytes = (n: number): Uint8Array => randomFillSync(new Uint8Array(n))

export const IdGenLive = Layer.succeed(IdGen, {
  uuid: Effect.sync(() => uuidV4FromBytes(randomBytes(16))),
  uuidV7: Effect.map(
    Effect.clockWith((clock) => clock.currentTimeMillis),
    (ms) => uuidV7FromParts(ms, randomBytes(16))
  ),
  randomBytes: (n) => Effect.sync(() => randomBytes(n))
})
