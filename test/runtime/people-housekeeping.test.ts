// People's housekeeping: one sweep deletes audit events past 180 days, sessions past their lifetime
// or idle past the SessionPolicy's timeout, links spent more than a day ago and expired OAuth
// records, and nothing else (on
// memory, PGlite and PostgreSQL); the layer sweeps at start and on its interval, survives a failed
// round and stops with its scope.
import { MemoryStorageLive, peopleHousekeeping, sweepPeople } from "@folio/adapters-storage"
import {
  AuditLog,
  OAuthStore,
  OneTimeTokenRepository,
  SessionPolicy,
  SessionRepository,
  StorageError,
  UserRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { describe, expect, it as vitestIt } from "vitest"
import { withStorage } from "../support/with-storage.js"
import { auditEvent, oneTimeToken, session, user } from "../storage/people-fixtures.js"
import { storageTargets } from "../storage/targets.js"

const HOUR = 3_600_000
const DAY = 24 * HOUR

for (const target of storageTargets)
  describe.skipIf(target.skip)(`people housekeeping [${target.name}]`, () => {
    const { run, newWorkspace } = withStorage(target)

    vitestIt(
      "deletes old audit events, expired and idle sessions, spent links and expired OAuth records, and only those",
      async () => {
        const ws = await newWorkspace()
        const ada = user()
        await run(Effect.flatMap(UserRepository, (r) => r.create(ada)))
        const now = Date.now()
        const ago = (ms: number) => new Date(now - ms)

        const oldEvent = auditEvent(ws.id, now - 181 * DAY)
        const recentEvent = auditEvent(ws.id, now - 179 * DAY)
        await run(Effect.flatMap(AuditLog, (r) => r.recordMany([oldEvent, recentEvent])))

        // The policy's idle timeout is one hour here (twelve by default).
        const pastLifetime = session(ada.id, { lastSeenAt: ago(60_000), expiresAt: ago(1_000) })
        const idle = session(ada.id, { lastSeenAt: ago(2 * HOUR), expiresAt: new Date(now + DAY) })
        const active = session(ada.id, { lastSeenAt: ago(30 * 60_000), expiresAt: new Date(now + DAY) })
        for (const s of [pastLifetime, idle, active])
          await run(Effect.flatMap(SessionRepository, (r) => r.create(s)))

        const link = (overrides: Parameters<typeof oneTimeToken>[0]) =>
          oneTimeToken({
            kind: "setup",
            tenantId: ws.id,
            role: "owner",
            createdAt: ago(10 * DAY),
            ...overrides
          })
        const expiredLongAgo = link({ expiresAt: ago(2 * DAY) })
        const expiredLately = link({ expiresAt: ago(HOUR) })
        const usedLongAgo = link({ expiresAt: new Date(now + DAY) })
        const usedLately = link({ expiresAt: new Date(now + DAY) })
        const open = link({ expiresAt: new Date(now + DAY) })
        for (const t of [expiredLongAgo, expiredLately, usedLongAgo, usedLately, open])
          await run(Effect.flatMap(OneTimeTokenRepository, (r) => r.create(t)))
        await run(
          Effect.flatMap(OneTimeTokenRepository, (r) =>
            r.consume("setup", usedLongAgo.tokenHash, ago(2 * DAY))
          )
        )
        await run(
          Effect.flatMap(OneTimeTokenRepository, (r) => r.consume("setup", usedLately.tokenHash, ago(HOUR)))
        )

        const oauthRecord = (model: string, id: string, expiresAt: Date) => ({
          model,
          id,
          payload: { accountId: `${ws.id}:${ada.id}` },
          grantId: model === "Grant" ? null : "grant-1",
          uid: null,
          userCode: null,
          tenantId: ws.id,
          expiresAt,
          consumedAt: null
        })
        const grant = oauthRecord("Grant", "grant-1", new Date(now + 14 * DAY))
        const expiredToken = oauthRecord("AccessToken", "token-expired", ago(1_000))
        const liveToken = oauthRecord("AccessToken", "token-live", new Date(now + HOUR))
        for (const r of [grant, expiredToken, liveToken])
          await run(Effect.flatMap(OAuthStore, (s) => s.upsert(r, ago(2 * HOUR))))

        const swept = await run(
          sweepPeople.pipe(
            Effect.provideService(SessionPolicy, { idleMs: HOUR, absoluteMs: 7 * DAY, touchEveryMs: 60_000 })
          )
        )
        expect(swept).toEqual({ auditEvents: 1, sessions: 2, links: 2, oauth: 1 })

        const events = await run(Effect.flatMap(AuditLog, (r) => r.list(ws.id, { before: null, limit: 10 })))
        expect(events.events.map((e) => e.id)).toEqual([recentEvent.id])
        const sessions = await run(Effect.flatMap(SessionRepository, (r) => r.listByUser(ada.id)))
        expect(sessions.map((s) => s.id)).toEqual([active.id])
        // Kept: the open link, and the two spent within the day, which a later sweep deletes.
        const nowDate = new Date(now)
        expect(
          Option.isSome(
            await run(Effect.flatMap(OneTimeTokenRepository, (r) => r.peek("setup", open.tokenHash, nowDate)))
          )
        ).toBe(true)
        const oauthFound = (model: string, id: string) =>
          run(Effect.flatMap(OAuthStore, (s) => s.find(model, id, new Date(0)))).then(Option.isSome)
        expect(await oauthFound("AccessToken", "token-expired")).toBe(false)
        expect(await oauthFound("AccessToken", "token-live")).toBe(true)
        expect(await oauthFound("Grant", "grant-1")).toBe(true)
        expect(await run(sweepPeople)).toEqual({ auditEvents: 0, sessions: 0, links: 0, oauth: 0 })
        expect(
          await run(Effect.flatMap(OneTimeTokenRepository, (r) => r.deleteSpent(new Date(now + 1))))
        ).toBe(2)
      },
      // A fresh PGlite's first queries take long on a loaded machine.
      180_000
    )
  })

describe("people housekeeping layer", () => {
  it.live("sweeps at start and on its interval, survives a failed round and stops with its scope", () =>
    Effect.gen(function* () {
      const scope = yield* Scope.make()
      const storage = yield* Layer.buildWithScope(MemoryStorageLive, scope)
      const real = Context.get(storage, AuditLog)
      let rounds = 0
      // The first round's audit sweep fails; later rounds run on.
      const flaky = AuditLog.of({
        ...real,
        deleteOlderThan: (before) =>
          Effect.suspend(() =>
            ++rounds === 1 ? Effect.fail(new StorageError({ message: "down" })) : real.deleteOlderThan(before)
          )
      })
      const old = () => auditEvent(TENANT, Date.now() - 200 * DAY)
      const remaining = Effect.map(
        real.list(TENANT, { before: null, limit: 10 }),
        (page) => page.events.length
      )
      yield* real.record(old())
      // Idle two hours: gone only under the configured one-hour idle timeout (twelve by default).
      const idle = session(USER, {
        lastSeenAt: new Date(Date.now() - 2 * HOUR),
        expiresAt: new Date(Date.now() + DAY)
      })
      yield* Context.get(storage, SessionRepository).create(idle)
      const sweeping = yield* Scope.make()
      yield* Layer.buildWithScope(
        peopleHousekeeping("30 millis").pipe(
          Layer.provide(Layer.succeedContext(Context.add(storage, AuditLog, flaky))),
          Layer.provide(
            Layer.succeed(SessionPolicy, { idleMs: HOUR, absoluteMs: 7 * DAY, touchEveryMs: 60_000 })
          )
        ),
        sweeping
      )
      // The round at start failed; the next one, 30 ms on, deleted the event.
      yield* Effect.sleep("100 millis")
      expect(rounds).toBeGreaterThanOrEqual(2)
      expect(yield* remaining).toBe(0)
      expect(
        Option.isNone(yield* Context.get(storage, SessionRepository).findByTokenHash(idle.tokenHash))
      ).toBe(true)
      yield* real.record(old())
      yield* Effect.sleep("100 millis")
      expect(yield* remaining).toBe(0)
      yield* Scope.close(sweeping, Exit.void)
      const seen = rounds
      yield* real.record(old())
      yield* Effect.sleep("100 millis")
      expect(rounds).toBe(seen)
      expect(yield* remaining).toBe(1)
      yield* Scope.close(scope, Exit.void)
    })
  )
})

/** Memory has no foreign keys: the layer's test needs no stored workspace. */
const TENANT = "00000000-0000-4000-8000-0000000000aa"
const USER = "00000000-0000-4000-8000-0000000000bb"
