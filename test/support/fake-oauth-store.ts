// A fake OAuthStore for the connected-apps use cases: records in a map, grants listed and revoked
// by workspace like the port says (another workspace's grant is never touched). The real adapters
// are tested by the store contract suite.
import { type OAuthGrantSummary, type OAuthRecord, OAuthStore } from "@folio/domain"
import { Effect, Layer, Option } from "effect"

export interface FakeOAuthStore {
  readonly layer: Layer.Layer<OAuthStore>
  /** Every record held, for asserting what a revocation removed. */
  readonly records: Map<string, OAuthRecord & { readonly createdAt: Date; lastUsedAt: Date | null }>
}

const keyOf = (model: string, id: string) => `${model}\u0000${id}`

const live = (record: OAuthRecord, now: Date) => record.expiresAt === null || record.expiresAt > now

export const fakeOAuthStore = (): FakeOAuthStore => {
  const records: FakeOAuthStore["records"] = new Map()
  const find = (model: string, id: string, now: Date) =>
    Effect.sync(() => {
      const record = records.get(keyOf(model, id))
      return record !== undefined && live(record, now) ? Option.some<OAuthRecord>(record) : Option.none()
    })
  const removeGrant = (grantId: string) => {
    for (const [key, record] of records)
      if (record.grantId === grantId || (record.model === "Grant" && record.id === grantId))
        records.delete(key)
  }
  const service = OAuthStore.of({
    upsert: (record, now) =>
      Effect.sync(() => {
        const old = records.get(keyOf(record.model, record.id))
        records.set(keyOf(record.model, record.id), {
          ...record,
          createdAt: old?.createdAt ?? now,
          lastUsedAt: old?.lastUsedAt ?? null
        })
      }),
    find,
    findByUid: (model, uid, now) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          [...records.values()].find((r) => r.model === model && r.uid === uid && live(r, now))
        )
      ),
    findByUserCode: (model, code, now) =>
      Effect.sync(() =>
        Option.fromNullishOr(
          [...records.values()].find((r) => r.model === model && r.userCode === code && live(r, now))
        )
      ),
    consume: (model, id, at) =>
      Effect.sync(() => {
        const record = records.get(keyOf(model, id))
        if (record === undefined || record.consumedAt !== null) return false
        records.set(keyOf(model, id), { ...record, consumedAt: at })
        return true
      }),
    destroy: (model, id) => Effect.sync(() => void records.delete(keyOf(model, id))),
    revokeByGrantId: (grantId) => Effect.sync(() => removeGrant(grantId)),
    grantsOfTenant: (tenantId, now) =>
      Effect.sync(() =>
        [...records.values()]
          .filter((r) => r.model === "Grant" && r.tenantId === tenantId && live(r, now))
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
          .map(
            (r): OAuthGrantSummary => ({
              grantId: r.id,
              tenantId,
              payload: r.payload,
              createdAt: r.createdAt,
              lastUsedAt: r.lastUsedAt
            })
          )
      ),
    revokeGrantOfTenant: (tenantId, grantId) =>
      Effect.sync(() => {
        const grant = records.get(keyOf("Grant", grantId))
        if (grant === undefined || grant.tenantId !== tenantId) return false
        removeGrant(grantId)
        return true
      }),
    touchGrant: (grantId, at) =>
      Effect.sync(() => {
        const grant = records.get(keyOf("Grant", grantId))
        if (grant !== undefined) grant.lastUsedAt = at
      }),
    deleteExpired: (now) =>
      Effect.sync(() => {
        let n = 0
        for (const [key, record] of records)
          if (!live(record, now)) {
            records.delete(key)
            n++
          }
        return n
      })
  })
  return { layer: Layer.succeed(OAuthStore, service), records }
}
