// Signing in, with a password or a passkey. Every failure of a password sign-in is the same
// InvalidCredentials whether or not the account exists; unknown e-mails still cost one hash and
// count against a budget, so neither the answer, its timing nor the budget reveals an account.
import { Duration, Effect, Option } from "effect"
import { sha256Hex } from "../../kernel/digest.js"
import type { StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import { PasskeyCeremony } from "../ports/passkey-ceremony.js"
import { PasswordHashing } from "../ports/password-hashing.js"
import {
  type AuditLog,
  type MembershipRepository,
  type OneTimeTokenRepository,
  PasskeyRepository,
  type SessionRepository,
  UserRepository
} from "../ports/people.js"
import { RateLimitStore } from "../ports/rate-limit-store.js"
import { auditInWorkspacesOf } from "./audit.js"
import { InvalidCredentials, PasskeyRejected, TooManyAttempts } from "./errors.js"
import { keepChallenge, takeChallenge } from "./passkey-challenges.js"
import { normalizeEmail, SignInPolicy } from "./policy.js"
import type { UserRecord } from "./records.js"
import { now } from "./secrets.js"
import { type StartedSession, startSession } from "./sessions.js"

export interface SignedIn extends StartedSession {
  readonly user: UserRecord
}

/** The budget buckets of an attempt: the account's by the hash of the e-mail, and the address's. */
export const signInBuckets = (email: string, ip: string | null) => ({
  account: `signin-account:${sha256Hex(Option.getOrElse(normalizeEmail(email), () => email.trim().toLowerCase()))}`,
  address: `signin-address:${ip ?? "unknown"}`
})

/** The delay before answering the n-th failure of a window: nothing up to delayAfter, then doubling. */
export const failureDelayMs = (
  failures: number,
  policy: { readonly delayAfter: number; readonly delayBaseMs: number; readonly delayMaxMs: number }
): number =>
  failures <= policy.delayAfter
    ? 0
    : Math.min(policy.delayBaseMs * 2 ** (failures - policy.delayAfter - 1), policy.delayMaxMs)

type SignInRequirements =
  | UserRepository
  | MembershipRepository
  | SessionRepository
  | RateLimitStore
  | PasswordHashing
  | AuditLog
  | IdGen

export const signInWithPassword = (input: {
  readonly email: string
  readonly password: string
  readonly ip: string | null
  readonly userAgent: string | null
}): Effect.Effect<SignedIn, InvalidCredentials | TooManyAttempts | StorageError, SignInRequirements> =>
  Effect.gen(function* () {
    const policy = yield* SignInPolicy
    const limits = yield* RateLimitStore
    const users = yield* UserRepository
    const hashing = yield* PasswordHashing
    const nowMs = (yield* now).getTime()
    const buckets = signInBuckets(input.email, input.ip)

    // Over either budget: refused before any verification, known and unknown e-mails alike.
    const [account, address] = [
      yield* limits.peek(buckets.account, policy.windowMs, nowMs),
      yield* limits.peek(buckets.address, policy.windowMs, nowMs)
    ]
    const spent = [
      ...(account.count >= policy.perAccount ? [account.resetAt] : []),
      ...(address.count >= policy.perAddress ? [address.resetAt] : [])
    ]
    if (spent.length > 0) {
      const retryAfterSeconds = Math.max(1, Math.ceil((Math.max(...spent) - nowMs) / 1000))
      return yield* new TooManyAttempts({ retryAfterSeconds })
    }

    const email = normalizeEmail(input.email)
    const user = Option.isSome(email) ? yield* users.findByEmail(email.value) : Option.none<UserRecord>()
    const stored = Option.flatMap(user, (u) => Option.fromNullishOr(u.passwordHash))
    const check = Option.isSome(stored)
      ? yield* hashing.verify(stored.value, input.password)
      : yield* Effect.as(hashing.burn(input.password), { valid: false, needsRehash: false })

    if (Option.isNone(user) || !check.valid) {
      const [accountHit, addressHit] = yield* limits.hitMany(
        [buckets.account, buckets.address],
        policy.windowMs,
        nowMs
      )
      if (Option.isSome(user))
        yield* auditInWorkspacesOf(user.value.id, {
          action: "signin.failed",
          actorUserId: user.value.id,
          actorEmail: user.value.email,
          ip: input.ip,
          details: { method: "password" }
        })
      const failures = Math.max(accountHit?.count ?? 0, addressHit?.count ?? 0)
      const delay = failureDelayMs(failures, policy)
      // The delay is part of this answer, not background work: it waits on the Clock port (a test
      // clock in tests), in the request that failed, before the one generic answer.
      if (delay > 0) yield* Effect.clockWith((clock) => clock.sleep(Duration.millis(delay)))
      return yield* new InvalidCredentials()
    }

    if (check.needsRehash) yield* users.setPasswordHash(user.value.id, yield* hashing.hash(input.password))
    return yield* signedIn(user.value, input, "password")
  })

const signedIn = (
  user: UserRecord,
  context: { readonly ip: string | null; readonly userAgent: string | null },
  method: "password" | "passkey"
) =>
  Effect.gen(function* () {
    const started = yield* startSession(user, context)
    yield* auditInWorkspacesOf(user.id, {
      action: "signin.succeeded",
      actorUserId: user.id,
      actorEmail: user.email,
      ip: context.ip,
      details: { method }
    })
    return { ...started, user }
  })

/** Starts a discoverable-credential sign-in: the browser's options and the flow id to answer with. */
export const beginPasskeySignIn = (): Effect.Effect<
  { readonly flowId: string; readonly options: unknown },
  StorageError,
  PasskeyCeremony | OneTimeTokenRepository | IdGen
> =>
  Effect.gen(function* () {
    const ceremony = yield* (yield* PasskeyCeremony).authenticationOptions
    const flowId = yield* keepChallenge("signin", ceremony.challenge, null)
    return { flowId, options: ceremony.options }
  })

/**
 * Finishes a passkey sign-in: the challenge is used up whatever happens, the credential looked up
 * by the id the response names, and its new signature counter recorded.
 */
export const finishPasskeySignIn = (input: {
  readonly flowId: string
  readonly response: unknown
  readonly ip: string | null
  readonly userAgent: string | null
}): Effect.Effect<
  SignedIn,
  PasskeyRejected | StorageError,
  SignInRequirements | PasskeyCeremony | PasskeyRepository | OneTimeTokenRepository
> =>
  Effect.gen(function* () {
    const challenge = yield* takeChallenge(input.flowId, "signin", null)
    if (Option.isNone(challenge)) return yield* new PasskeyRejected()
    const ceremony = yield* PasskeyCeremony
    const credentialId = ceremony.credentialIdOf(input.response)
    if (Option.isNone(credentialId)) return yield* new PasskeyRejected()
    const passkeys = yield* PasskeyRepository
    const passkey = yield* passkeys.findByCredentialId(credentialId.value)
    if (Option.isNone(passkey)) return yield* new PasskeyRejected()
    const user = yield* (yield* UserRepository).get(passkey.value.userId)
    if (Option.isNone(user)) return yield* new PasskeyRejected()
    const counter = yield* ceremony.verifyAuthentication(input.response, challenge.value, passkey.value)
    if (Option.isNone(counter)) {
      yield* auditInWorkspacesOf(user.value.id, {
        action: "signin.failed",
        actorUserId: user.value.id,
        actorEmail: user.value.email,
        ip: input.ip,
        details: { method: "passkey" }
      })
      return yield* new PasskeyRejected()
    }
    yield* passkeys.recordUse(passkey.value.id, counter.value, yield* now)
    return yield* signedIn(user.value, input, "passkey")
  })
