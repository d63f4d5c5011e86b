// The guessing budget of the sharing service's public passwords: a resource's form at /s/{slug}
// and an upload request's at /u/{token}. Attempts are counted per protected thing and client
// address in a fixed window of the shared RateLimitStore (so every instance spends one budget),
// before the hash is checked: parallel guesses cannot outrun it, and once it is spent even the
// right password is refused until the window ends.
import { Effect } from "effect"
import type { RateLimitStore } from "../identity/ports/rate-limit-store.js"
import { decideRate } from "../identity/rate-limit.js"
import { RateLimited, type StorageError } from "../kernel/errors.js"

/** Password attempts per client address and protected thing in one window (then 429 until it ends). */
export const PASSWORD_ATTEMPTS = 10
export const PASSWORD_ATTEMPT_WINDOW_MS = 10 * 60_000

/** What a password protects: a resource (its page) or an upload request (its upload form). */
export type PasswordProtected = "resource" | "upload_request"

// The resource bucket keeps the name it had before upload requests shared the budget.
const PREFIX: Record<PasswordProtected, string> = {
  resource: "sharing-unlock",
  upload_request: "upload-unlock"
}

/** The bucket of one client address's attempts on one protected thing. */
export const passwordAttemptBucket = (kind: PasswordProtected, id: string, client: string): string =>
  `${PREFIX[kind]}:${id}:${client}`

/** Counts one attempt; over the budget, RateLimited (with the seconds until the window ends). */
export const spendPasswordAttempt = (
  limits: RateLimitStore["Service"],
  kind: PasswordProtected,
  id: string,
  client: string,
  nowMs: number
): Effect.Effect<void, RateLimited | StorageError> =>
  Effect.flatMap(
    limits.hit(passwordAttemptBucket(kind, id, client), PASSWORD_ATTEMPT_WINDOW_MS, nowMs),
    (hit) => {
      const d = decideRate(hit.count, PASSWORD_ATTEMPTS, hit.resetAt, nowMs)
      return d.allowed
        ? Effect.void
        : Effect.fail(
            new RateLimited({
              message: "too many password attempts; try again later",
              retryAfterSeconds: d.resetSeconds
            })
          )
    }
  )
