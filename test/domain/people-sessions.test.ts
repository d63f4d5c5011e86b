// Console sessions on the memory store and a test clock: the idle timeout slides with use, the
// absolute lifetime does not, use is written at most once per touchEveryMs, "sign out everywhere"
// keeps only the asking session, and a removed member's session no longer acts in the workspace.
import {
  consoleActor,
  listSessions,
  removeMember,
  resolveSession,
  SessionPolicy,
  signInWithPassword,
  signOut,
  signOutEverywhere,
  startSession,
  switchWorkspace
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import {
  actorOf,
  addMember,
  createPerson,
  PASSWORD,
  PeopleTestLive,
  workspaceWithOwner
} from "../support/people.js"

const policy = { idleMs: 1_000, absoluteMs: 5_000, touchEveryMs: 100 }

const alive = (token: string) => Effect.map(resolveSession(token), Option.isSome)

describe("console sessions", () => {
  it.effect("expire when idle for idleMs, the timeout sliding with use", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const { token } = yield* startSession(owner, { ip: null, userAgent: null })
      yield* TestClock.adjust(999)
      expect(yield* alive(token)).toBe(true)
      yield* TestClock.adjust(999)
      expect(yield* alive(token)).toBe(true)
      yield* TestClock.adjust(1_000)
      expect(yield* alive(token)).toBe(false)
      // Deleted on sight: not listed any more.
      expect(yield* listSessions(owner.id)).toEqual([])
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(SessionPolicy, policy))
  )

  it.effect("end at their absolute lifetime however often they are used", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const { token } = yield* startSession(owner, { ip: null, userAgent: null })
      for (let t = 900; t < 5_000; t += 900) {
        yield* TestClock.adjust(900)
        expect(yield* alive(token), `at ${t} ms`).toBe(true)
      }
      yield* TestClock.adjust(500)
      expect(yield* alive(token)).toBe(false)
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(SessionPolicy, policy))
  )

  it.effect("write their use at most once per touchEveryMs", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const { token, session } = yield* startSession(owner, { ip: null, userAgent: null })
      const lastSeen = Effect.map(listSessions(owner.id), (s) => s[0]?.lastSeenAt.getTime())
      yield* TestClock.adjust(50)
      yield* resolveSession(token)
      expect(yield* lastSeen).toBe(session.lastSeenAt.getTime())
      yield* TestClock.adjust(60)
      yield* resolveSession(token)
      expect(yield* lastSeen).toBe(session.lastSeenAt.getTime() + 110)
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(SessionPolicy, policy))
  )

  it.effect("sign out one, or everywhere but the asking session", () =>
    Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const sign = signInWithPassword({ email: owner.email, password: PASSWORD, ip: null, userAgent: null })
      const [a, b, c] = [yield* sign, yield* sign, yield* sign]
      yield* signOut(c.token)
      expect(yield* alive(c.token)).toBe(false)
      expect(yield* signOutEverywhere(owner.id, a.session.id)).toBe(1)
      expect(yield* alive(a.token)).toBe(true)
      expect(yield* alive(b.token)).toBe(false)
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("act in a workspace only while a member of it", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const other = yield* workspaceWithOwner("Other", "other-owner@example.com")
      const member = yield* createPerson("member@example.com")
      yield* addMember(tenant.id, member, "member")
      const { session } = yield* startSession(member, { ip: null, userAgent: null })
      expect((yield* consoleActor(session, member, "192.0.2.1")).role).toBe("member")
      // Another workspace: not a member, cannot switch to it.
      const refused = yield* Effect.result(switchWorkspace(session, other.tenant.id))
      expect(Result.isFailure(refused) && refused.failure._tag).toBe("NotAMember")
      yield* removeMember(actorOf(owner, tenant.id, "owner"), member.id)
      const after = Option.getOrThrow(
        yield* resolveSession((yield* startSession(member, { ip: null, userAgent: null })).token)
      )
      expect(after.session.tenantId).toBeNull()
      expect((yield* listSessions(member.id)).map((s) => s.tenantId)).toEqual([null, null])
      const gone = yield* Effect.result(consoleActor(session, member, null))
      expect(Result.isFailure(gone) && gone.failure._tag).toBe("NotAMember")
    }).pipe(Effect.provide(PeopleTestLive))
  )
})
