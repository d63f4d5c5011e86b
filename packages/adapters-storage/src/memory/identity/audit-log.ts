// In-memory AuditLog: the twin of sql/identity/audit-log.ts (pages newest first by the uuid v7 id).
import { AuditLog } from "@folio/domain"
import { Effect, Layer } from "effect"
import { MemoryStore } from "../store.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export const makeAuditLog = Effect.map(Effect.service(MemoryStore), ({ people }) =>
  AuditLog.of({
    record: (event) => Effect.sync(() => void people.auditEvents.push(event)),
    recordMany: (events) => Effect.sync(() => void people.auditEvents.push(...events)),
    list: (tenantId, { before, limit }) =>
      Effect.sync(() => {
        // A cursor that is no event id has no older events, as in SQL (where it is a uuid).
        if (before !== null && !UUID.test(before)) return { events: [], nextBefore: null }
        const older = people.auditEvents
          .filter((e) => e.tenantId === tenantId && (before === null || e.id < before))
          .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        const events = older.slice(0, limit)
        const last = events[events.length - 1]
        return { events, nextBefore: older.length > limit && last !== undefined ? last.id : null }
      }),
    deleteOlderThan: (before) =>
      Effect.sync(() => {
        const kept = people.auditEvents.filter((e) => e.at.getTime() >= before.getTime())
        const deleted = people.auditEvents.length - kept.length
        people.auditEvents.splice(0, people.auditEvents.length, ...kept)
        return deleted
      })
  })
)

export const MemoryAuditLogLive = Layer.effect(AuditLog, makeAuditLog)
