// Signing in on the memory store with real argon2id (cheap parameters) and a test clock: a fresh
// session per sign-in, one generic failure for known and unknown e-mails (both paying one hash),
// delays that double past the third failure, budgets per account and per address (unknown e-mails
// included), a rehash when the stored hash's parameters are not today's, and passkey sign-in.
import { Argon2PasswordHashing, IdGenLive, MemoryStorageLive } from "@folio/adapters-storage"
import {
  AuditLog,
  beginPasskeyRegistration,
  beginPasskeySignIn,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  PasswordHashing,
  RateLimitStore,
  signInBuckets,
  resolveSession,
  SignInPolicy,
  signInWithPassword,
  UserRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Exit, Fiber, Layer, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import {
  countingHashing,
  FakeCeremonyLive,
  PASSWORD,
  PeopleTestLive,
  workspaceWithOwner
} from "../support/people.js"

const attempt = (email: string, password: string, ip = "192.0.2.1") =>
  Effect.result(signInWithPassword({ email, password, ip, userAgent: "test" }))

const tagOf = (result: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(result) ? result.failure._tag : "ok"

/** Budgets small enough to spend, with no delays in the way. */
const tightBudgets = {
  windowMs: 60_000,
  perAccount: 3,
  perAddress: 5,
  delayAfter: 100,
  delayBaseMs: 1,
  delayMaxMs: 1
}

describe("password sign-in", () => {
  it.effect("starts a new session each time (rotation) and records it in the workspace", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const first = yield* signInWithPassword({
        email: " Owner@Example.com ",
        password: PASSWORD,
        ip: "192.0.2.1",
        userAgent: "ua"
      })
      const second = yield* signInWithPassword({
        email: owner.email,
        password: PASSWORD,
        ip: "192.0.2.1",
        userAgent: "ua"
      })
      expect(first.user.id).toBe(owner.id)
      expect(first.token).not.toBe(second.token)
      expect(first.session.id).not.toBe(second.session.id)
      expect(first.session.tenantId).toBe(tenant.id)
      expect(first.session.tokenHash).not.toContain(first.token)
      const resolved = yield* resolveSession(first.token)
      expect(Option.map(resolved, (r) => r.user.id)).toEqual(Option.some(owner.id))
      const page = yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 10 })
      expect(page.events.map((e) => [e.action, e.details["method"]])).toEqual([
        ["signin.succeeded", "password"],
        ["signin.succeeded", "password"]
      ])
      const logged = JSON.stringify(page.events)
      for (const secret of [PASSWORD, first.token, second.token, first.session.csrfToken])
        expect(logged).not.toContain(secret)
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("answers unknown and known e-mails with the same error, and both pay one hash", () => {
    const counting = countingHashing()
    return Effect.gen(function* () {
      const { tenant } = yield* workspaceWithOwner()
      const wrong = yield* attempt("owner@example.com", "not the password")
      const unknown = yield* attempt("nobody@example.com", "not the password")
      const invalid = yield* attempt("not an address", "not the password")
      for (const r of [wrong, unknown, invalid]) {
        expect(tagOf(r)).toBe("InvalidCredentials")
        if (Result.isFailure(r)) expect(r.failure.message).toBe("email or password is wrong")
      }
      expect(counting.calls.verify).toBe(1)
      expect(counting.calls.burn).toBe(2)
      // The known account's failure is in its workspace's log; nothing is recorded for the others.
      const page = yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 10 })
      expect(page.events.map((e) => e.action)).toEqual(["signin.failed"])
      expect(JSON.stringify(page.events)).not.toContain("not the password")
    }).pipe(Effect.provide(Layer.mergeAll(MemoryStorageLive, IdGenLive, counting.layer)))
  })

  it.effect("waits longer after each failure past the third (on the clock)", () =>
    Effect.gen(function* () {
      yield* workspaceWithOwner()
      // Three failures answer at once.
      for (let i = 0; i < 3; i++)
        expect(tagOf(yield* attempt("owner@example.com", "wrong password"))).toBe("InvalidCredentials")
      const limits = yield* RateLimitStore
      const bucket = signInBuckets("owner@example.com", "192.0.2.1").account
      let failures = 3
      for (const expectedDelay of [250, 500, 1_000]) {
        const fiber = yield* Effect.forkChild(attempt("owner@example.com", "wrong password"))
        // The hash runs for real (off the test clock): wait until the failure is counted, which
        // happens just before the delay starts, then let the fiber reach it.
        failures += 1
        for (let i = 0; i < 500 && (yield* limits.peek(bucket, 900_000, 0)).count < failures; i++)
          yield* TestClock.withLive(Effect.sleep(5))
        yield* TestClock.withLive(Effect.sleep(50))
        yield* TestClock.adjust(expectedDelay - 1)
        expect(fiber.pollUnsafe(), `still waiting before ${expectedDelay} ms`).toBeUndefined()
        yield* TestClock.adjust(1)
        const exit = yield* Fiber.await(fiber)
        expect(Exit.isSuccess(exit) && tagOf(exit.value)).toBe("InvalidCredentials")
      }
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("refuses an account over its budget, even with the right password, from any address", () =>
    Effect.gen(function* () {
      yield* workspaceWithOwner()
      for (let i = 0; i < 3; i++) yield* attempt("owner@example.com", "wrong password", `192.0.2.${i}`)
      const refused = yield* attempt("owner@example.com", PASSWORD, "198.51.100.7")
      expect(tagOf(refused)).toBe("TooManyAttempts")
      if (Result.isFailure(refused) && refused.failure._tag === "TooManyAttempts")
        expect(refused.failure.retryAfterSeconds).toBeGreaterThan(0)
      // An unknown e-mail is budgeted the same way (its answer reveals nothing).
      for (let i = 0; i < 3; i++) yield* attempt("nobody@example.com", "wrong password", `192.0.2.${i}`)
      expect(tagOf(yield* attempt("nobody@example.com", "wrong password", "198.51.100.8"))).toBe(
        "TooManyAttempts"
      )
      // The next window starts afresh.
      yield* TestClock.adjust(60_000)
      expect(tagOf(yield* attempt("owner@example.com", PASSWORD))).toBe("ok")
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(SignInPolicy, tightBudgets))
  )

  it.effect("refuses an address over its budget, whichever e-mails it tries", () =>
    Effect.gen(function* () {
      yield* workspaceWithOwner()
      for (let i = 0; i < 5; i++) yield* attempt(`someone${i}@example.com`, "wrong password", "203.0.113.9")
      expect(tagOf(yield* attempt("owner@example.com", PASSWORD, "203.0.113.9"))).toBe("TooManyAttempts")
      expect(tagOf(yield* attempt("owner@example.com", PASSWORD, "203.0.113.10"))).toBe("ok")
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(SignInPolicy, tightBudgets))
  )

  it.effect("stores a fresh hash when the stored one was made with other parameters", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const old = yield* Effect.provide(
        Effect.flatMap(Effect.service(PasswordHashing), (h) => h.hash(PASSWORD)),
        Argon2PasswordHashing({ memoryCost: 2048, timeCost: 1, parallelism: 1 })
      )
      const users = yield* UserRepository
      yield* users.setPasswordHash(owner.id, old)
      yield* signInWithPassword({ email: owner.email, password: PASSWORD, ip: null, userAgent: null })
      const stored = Option.getOrThrow(yield* users.get(owner.id)).passwordHash ?? ""
      expect(stored).not.toBe(old)
      expect(stored).toContain("m=1024,t=1,p=1")
      expect((yield* (yield* PasswordHashing).verify(stored, PASSWORD)).needsRehash).toBe(false)
      // A second sign-in keeps the current hash.
      yield* signInWithPassword({ email: owner.email, password: PASSWORD, ip: null, userAgent: null })
      expect(Option.getOrThrow(yield* users.get(owner.id)).passwordHash).toBe(stored)
    }).pipe(Effect.provide(PeopleTestLive))
  )
})

describe("passkey sign-in", () => {
  it.effect("registers a passkey and signs in with it; a response for another challenge is refused", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const registration = yield* beginPasskeyRegistration(owner.id)
      const challenge = (registration.options as { challenge: string }).challenge
      const passkey = yield* finishPasskeyRegistration(owner.id, {
        flowId: registration.flowId,
        response: { credentialId: "cred-1", challenge },
        name: "Laptop"
      })
      expect(passkey.credentialId).toBe("cred-1")
      // The flow is single-use.
      const again = yield* Effect.result(
        finishPasskeyRegistration(owner.id, {
          flowId: registration.flowId,
          response: { credentialId: "cred-2", challenge },
          name: "x"
        })
      )
      expect(tagOf(again)).toBe("PasskeyRejected")

      const stale = yield* beginPasskeySignIn()
      const fresh = yield* beginPasskeySignIn()
      const staleChallenge = (stale.options as { challenge: string }).challenge
      const wrong = yield* Effect.result(
        finishPasskeySignIn({
          flowId: fresh.flowId,
          response: { credentialId: "cred-1", challenge: staleChallenge, counter: 1 },
          ip: null,
          userAgent: null
        })
      )
      expect(tagOf(wrong)).toBe("PasskeyRejected")
      const next = yield* beginPasskeySignIn()
      const signedIn = yield* finishPasskeySignIn({
        flowId: next.flowId,
        response: {
          credentialId: "cred-1",
          challenge: (next.options as { challenge: string }).challenge,
          counter: 1
        },
        ip: null,
        userAgent: null
      })
      expect(signedIn.user.id).toBe(owner.id)
      expect(Option.isSome(yield* resolveSession(signedIn.token))).toBe(true)
    }).pipe(Effect.provide(Layer.merge(PeopleTestLive, FakeCeremonyLive)))
  )
})
