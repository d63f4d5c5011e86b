// The random secrets of people's flows (session tokens, link tokens, ceremony flow ids, CSRF
// tokens): 32 random bytes, base64url in the cookie or link, only their SHA-256 stored.
import { Clock, Effect } from "effect"
import { sha256Hex, toBase64Url } from "../../kernel/digest.js"
import { IdGen } from "../../kernel/ports/id-gen.js"

const SECRET_BYTES = 32

/** A fresh secret and the hash storage keeps of it. */
export const newSecret: Effect.Effect<{ readonly token: string; readonly hash: string }, never, IdGen> =
  Effect.gen(function* () {
    const ids = yield* IdGen
    const token = toBase64Url(yield* ids.randomBytes(SECRET_BYTES))
    return { token, hash: sha256Hex(token) }
  })

/** What storage looks a presented secret up by. */
export const hashSecret = (token: string): string => sha256Hex(token)

export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))
