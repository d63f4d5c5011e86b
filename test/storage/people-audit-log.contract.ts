// Contract of AuditLog: a workspace's events newest first in pages, never another workspace's, and
// deleted past the retention. Run by register-contracts.ts against every storage target.
import { AuditLog } from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at } from "./fixtures.js"
import { auditEvent } from "./people-fixtures.js"

export const registerAuditLogContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const audit = <A, E>(f: (r: AuditLog["Service"]) => Effect.Effect<A, E>) => run(Effect.flatMap(AuditLog, f))
  const t0 = at("2026-04-01T00:00:00.000Z").getTime()

  describe(`AuditLog [${target}]`, () => {
    it("lists a workspace's events newest first, a page at a time", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const events = Array.from({ length: 5 }, (_, i) => auditEvent(ws.id, t0 + i * 1000))
      const [first, ...rest] = events
      if (first === undefined) throw new Error("no events")
      await audit((r) => r.record(first))
      await audit((r) => r.recordMany(rest))
      await audit((r) => r.recordMany([]))
      await audit((r) => r.record(auditEvent(other.id, t0 + 10_000)))
      const newestFirst = [...events].reverse()

      const page1 = await audit((r) => r.list(ws.id, { before: null, limit: 2 }))
      expect(page1.events).toEqual(newestFirst.slice(0, 2))
      expect(page1.nextBefore).toBe(newestFirst[1]?.id)
      const page2 = await audit((r) => r.list(ws.id, { before: page1.nextBefore, limit: 2 }))
      expect(page2.events).toEqual(newestFirst.slice(2, 4))
      const page3 = await audit((r) => r.list(ws.id, { before: page2.nextBefore, limit: 2 }))
      expect(page3).toEqual({ events: newestFirst.slice(4), nextBefore: null })
      // A page that ends exactly at the last event says there is no more.
      expect(await audit((r) => r.list(ws.id, { before: null, limit: 5 }))).toEqual({
        events: newestFirst,
        nextBefore: null
      })
      expect((await audit((r) => r.list(other.id, { before: null, limit: 50 }))).events).toHaveLength(1)
      // A cursor that is no event id (a hand-edited URL) lists nothing, rather than failing.
      expect(await audit((r) => r.list(ws.id, { before: "zzz", limit: 2 }))).toEqual({
        events: [],
        nextBefore: null
      })
      const empty = await newWorkspace()
      expect(await audit((r) => r.list(empty.id, { before: null, limit: 50 }))).toEqual({
        events: [],
        nextBefore: null
      })
    })

    it("keeps an event's actor, target, address and value-free details as recorded", async () => {
      const ws = await newWorkspace()
      const anonymous = auditEvent(ws.id, t0, {
        action: "signin.failed",
        actorUserId: null,
        actorEmail: null,
        target: null,
        ip: null,
        details: {}
      })
      const joined = auditEvent(ws.id, t0 + 1, { action: "member.joined" })
      await audit((r) => r.recordMany([anonymous, joined]))
      expect((await audit((r) => r.list(ws.id, { before: null, limit: 10 }))).events).toEqual([
        joined,
        anonymous
      ])
    })

    it("deletes events older than a time, and only those", async () => {
      // In 2001, before every other test's events: the sweep counts only these.
      const ws = await newWorkspace()
      const cutoff = at("2001-06-01T00:00:00.000Z").getTime()
      const old = [auditEvent(ws.id, cutoff - 86_400_000), auditEvent(ws.id, cutoff - 1)]
      const kept = [auditEvent(ws.id, cutoff), auditEvent(ws.id, cutoff + 1)]
      await audit((r) => r.recordMany([...old, ...kept]))
      expect(await audit((r) => r.deleteOlderThan(new Date(cutoff)))).toBe(2)
      expect(await audit((r) => r.deleteOlderThan(new Date(cutoff)))).toBe(0)
      expect((await audit((r) => r.list(ws.id, { before: null, limit: 10 }))).events).toEqual(
        [...kept].reverse()
      )
    })
  })
}
