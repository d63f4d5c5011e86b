// In-memory OAuthStore: the twin of sql/identity/oauth-store.ts. Every step is synchronous, so of two
// racing consumes of one record exactly one sees it unconsumed; payloads are copied in and out, as
// a round trip through jsonb would, so the library never shares an object with the store.
import { type OAuthGrantSummary, type OAuthRecord, OAuthStore } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore, type StoredOAuthRecord } from "../store.js"

const keyOf = (model: string, id: string) => `${model}\u0000${id}`

const live = (stored: StoredOAuthRecord, now: Date) =>
  stored.record.expiresAt === null || stored.record.expiresAt.getTime() > now.getTime()

const copy = (record: OAuthRecord): OAuthRecord => ({ ...record, payload: structuredClone(record.payload) })

const isGrantOf = (stored: StoredOAuthRecord, grantId: string) =>
  stored.record.grantId === grantId || (stored.record.model === "Grant" && stored.record.id === grantId)

export const makeOAuthStore = Effect.map(
  Effect.service(MemoryStore),
  ({ people: { oauthRecords: records } }) => {
    const findBy = (match: (r: OAuthRecord) => boolean, now: Date) =>
      Effect.sync(() => {
        for (const stored of records.values())
          if (match(stored.record) && live(stored, now)) return Option.some(copy(stored.record))
        return Option.none<OAuthRecord>()
      })
    const revokeGrant = (grantId: string) => {
      for (const [key, stored] of [...records.entries()]) if (isGrantOf(stored, grantId)) records.delete(key)
    }
    return OAuthStore.of({
      upsert: (record, now) =>
        Effect.sync(() => {
          const key = keyOf(record.model, record.id)
          const existing = records.get(key)
          records.set(key, {
            record: copy(record),
            createdAt: existing?.createdAt ?? now,
            lastUsedAt: existing?.lastUsedAt ?? null
          })
        }),
      find: (model, id, now) =>
        Effect.sync(() => {
          const stored = records.get(keyOf(model, id))
          return stored !== undefined && live(stored, now) ? Option.some(copy(stored.record)) : Option.none()
        }),
      findByUid: (model, uid, now) => findBy((r) => r.model === model && r.uid === uid, now),
      findByUserCode: (model, userCode, now) =>
        findBy((r) => r.model === model && r.userCode === userCode, now),
      consume: (model, id, at) =>
        Effect.sync(() => {
          const key = keyOf(model, id)
          const stored = records.get(key)
          if (stored === undefined || stored.record.consumedAt !== null || !live(stored, at)) return false
          records.set(key, { ...stored, record: { ...stored.record, consumedAt: at } })
          return true
        }),
      destroy: (model, id) => Effect.sync(() => void records.delete(keyOf(model, id))),
      revokeByGrantId: (grantId) => Effect.sync(() => revokeGrant(grantId)),
      grantsOfTenant: (tenantId, now) =>
        Effect.sync(() =>
          [...records.values()]
            .filter((s) => s.record.model === "Grant" && s.record.tenantId === tenantId && live(s, now))
            .sort(
              (a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.record.id < b.record.id ? 1 : -1)
            )
            .map(
              (s): OAuthGrantSummary => ({
                grantId: s.record.id,
                tenantId,
                payload: structuredClone(s.record.payload),
                createdAt: s.createdAt,
                lastUsedAt: s.lastUsedAt
              })
            )
        ),
      revokeGrantOfTenant: (tenantId, grantId) =>
        Effect.sync(() => {
          const grant = records.get(keyOf("Grant", grantId))
          if (grant === undefined || grant.record.tenantId !== tenantId) return false
          revokeGrant(grantId)
          return true
        }),
      touchGrant: (grantId, at, minIntervalMs) =>
        Effect.sync(() => {
          const key = keyOf("Grant", grantId)
          const grant = records.get(key)
          if (grant === undefined) return
          if (grant.lastUsedAt !== null && grant.lastUsedAt.getTime() > at.getTime() - minIntervalMs) return
          records.set(key, { ...grant, lastUsedAt: at })
        }),
      deleteExpired: (now) =>
        Effect.sync(() => {
          let deleted = 0
          for (const [key, stored] of [...records.entries()])
            if (stored.record.expiresAt !== null && stored.record.expiresAt.getTime() < now.getTime()) {
              records.delete(key)
              deleted++
            }
          return deleted
        })
    })
  }
)

export const MemoryOAuthStoreLive = Layer.effect(OAuthStore, makeOAuthStore)
