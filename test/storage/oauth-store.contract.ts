// Contract of OAuthStore: records stored, replaced and found (by id, uid, user code) until they
// expire; consumed once (of racing consumes exactly one wins); a grant's records revoked together;
// a workspace's grants listed, touched at most once an interval and revoked only by that workspace;
// expired records swept. Run by register-contracts.ts against every storage target.
import { randomBytes } from "node:crypto"
import { type OAuthRecord, OAuthStore } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at } from "./fixtures.js"

const newId = () => randomBytes(16).toString("base64url")

const record = (overrides: Partial<OAuthRecord> = {}): OAuthRecord => ({
  model: "AccessToken",
  id: newId(),
  payload: { kind: "AccessToken", scope: "read", extra: { nested: [1, "two", null, true] }, name: "Zoë ✓" },
  grantId: null,
  uid: null,
  userCode: null,
  tenantId: null,
  expiresAt: at("2026-03-02T10:00:00.000Z"),
  consumedAt: null,
  ...overrides
})

const grant = (tenantId: string, overrides: Partial<OAuthRecord> = {}): OAuthRecord => {
  const id = overrides.id ?? newId()
  return record({
    model: "Grant",
    id,
    tenantId,
    payload: {
      accountId: `${tenantId}:ada`,
      clientId: "https://client.example.test/meta.json",
      resources: { "https://folio.example.test/share/mcp": "read write" }
    },
    expiresAt: at("2026-03-16T09:00:00.000Z"),
    ...overrides
  })
}

export const registerOAuthStoreContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const store = <A, E>(f: (s: OAuthStore["Service"]) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(OAuthStore, f))
  const now = at("2026-03-02T09:00:00.000Z")
  const later = (ms: number) => new Date(now.getTime() + ms)
  const found = async (model: string, id: string, when = now) =>
    Option.getOrUndefined(await store((s) => s.find(model, id, when)))

  describe(`OAuthStore [${target}]`, () => {
    it("finds a stored record as it was stored, and replaces it by model and id", async () => {
      const token = record({ grantId: newId() })
      await store((s) => s.upsert(token, now))
      expect(await found("AccessToken", token.id)).toEqual(token)
      // Same id under another model is another record.
      expect(await found("RefreshToken", token.id)).toBeUndefined()
      expect(await found("AccessToken", newId())).toBeUndefined()

      const replaced = { ...token, payload: { kind: "AccessToken", scope: "read write" }, expiresAt: null }
      await store((s) => s.upsert(replaced, later(1_000)))
      expect(await found("AccessToken", token.id)).toEqual(replaced)
      // Without an expiry it never expires.
      expect(await found("AccessToken", token.id, at("2099-01-01T00:00:00.000Z"))).toEqual(replaced)
    })

    it("finds nothing once a record has expired", async () => {
      const token = record({ expiresAt: later(60_000) })
      await store((s) => s.upsert(token, now))
      expect(await found("AccessToken", token.id, later(59_999))).toEqual(token)
      expect(await found("AccessToken", token.id, later(60_000))).toBeUndefined()
      expect(await store((s) => s.consume("AccessToken", token.id, later(60_000)))).toBe(false)
    })

    it("finds an interaction by its uid and a device code by its user code", async () => {
      const interaction = record({ model: "Interaction", uid: newId(), expiresAt: later(600_000) })
      const other = record({ model: "Interaction", uid: newId(), expiresAt: later(600_000) })
      const device = record({ model: "DeviceCode", userCode: "ABCD-EFGH", expiresAt: later(600_000) })
      for (const r of [interaction, other, device]) await store((s) => s.upsert(r, now))
      expect(
        Option.getOrThrow(await store((s) => s.findByUid("Interaction", interaction.uid ?? "", now)))
      ).toEqual(interaction)
      expect(Option.isNone(await store((s) => s.findByUid("Session", interaction.uid ?? "", now)))).toBe(true)
      expect(Option.isNone(await store((s) => s.findByUid("Interaction", newId(), now)))).toBe(true)
      expect(
        Option.isNone(await store((s) => s.findByUid("Interaction", interaction.uid ?? "", later(600_000))))
      ).toBe(true)
      expect(Option.getOrThrow(await store((s) => s.findByUserCode("DeviceCode", "ABCD-EFGH", now)))).toEqual(
        device
      )
      expect(Option.isNone(await store((s) => s.findByUserCode("DeviceCode", "ZZZZ-ZZZZ", now)))).toBe(true)
    })

    it("consumes a record once; an unknown one is not consumed", async () => {
      const code = record({ model: "AuthorizationCode" })
      await store((s) => s.upsert(code, now))
      expect(await store((s) => s.consume("AuthorizationCode", code.id, later(1)))).toBe(true)
      expect(await found("AuthorizationCode", code.id)).toEqual({ ...code, consumedAt: later(1) })
      expect(await store((s) => s.consume("AuthorizationCode", code.id, later(2)))).toBe(false)
      expect((await found("AuthorizationCode", code.id))?.consumedAt).toEqual(later(1))
      expect(await store((s) => s.consume("AuthorizationCode", newId(), now))).toBe(false)
    })

    it("of concurrent consumes of one refresh token, exactly one wins", async () => {
      for (let round = 0; round < 5; round++) {
        const refresh = record({ model: "RefreshToken", grantId: newId() })
        await store((s) => s.upsert(refresh, now))
        const results = await Promise.all([
          store((s) => s.consume("RefreshToken", refresh.id, now)),
          store((s) => s.consume("RefreshToken", refresh.id, now)),
          store((s) => s.consume("RefreshToken", refresh.id, now))
        ])
        expect(results.filter((won) => won)).toHaveLength(1)
      }
    })

    it("destroys one record", async () => {
      const a = record()
      const b = record()
      for (const r of [a, b]) await store((s) => s.upsert(r, now))
      await store((s) => s.destroy("AccessToken", a.id))
      expect(await found("AccessToken", a.id)).toBeUndefined()
      expect(await found("AccessToken", b.id)).toEqual(b)
    })

    it("revokes a grant with its tokens and codes, and nothing of another grant", async () => {
      const ws = await newWorkspace()
      const g = grant(ws.id)
      const kept = grant(ws.id)
      const access = record({ grantId: g.id, tenantId: ws.id })
      const refresh = record({ model: "RefreshToken", grantId: g.id, tenantId: ws.id })
      const otherAccess = record({ grantId: kept.id, tenantId: ws.id })
      for (const r of [g, kept, access, refresh, otherAccess]) await store((s) => s.upsert(r, now))
      await store((s) => s.revokeByGrantId(g.id))
      expect(await found("Grant", g.id)).toBeUndefined()
      expect(await found("AccessToken", access.id)).toBeUndefined()
      expect(await found("RefreshToken", refresh.id)).toBeUndefined()
      expect(await found("Grant", kept.id)).toEqual(kept)
      expect(await found("AccessToken", otherAccess.id)).toEqual(otherAccess)
    })

    it("lists a workspace's unexpired grants newest first, with when they were granted and last used", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const older = grant(ws.id)
      const newer = grant(ws.id)
      const expired = grant(ws.id, { expiresAt: later(1_000) })
      const elsewhere = grant(other.id)
      const token = record({ grantId: older.id, tenantId: ws.id })
      await store((s) => s.upsert(older, now))
      await store((s) => s.upsert(token, now))
      await store((s) => s.upsert(expired, later(500)))
      await store((s) => s.upsert(newer, later(60_000)))
      await store((s) => s.upsert(elsewhere, later(60_000)))
      // Replacing a grant (the library saves it again) keeps when it was first granted.
      await store((s) =>
        s.upsert({ ...older, payload: { ...older.payload, openid: { scope: "openid" } } }, later(90_000))
      )

      const listed = await store((s) => s.grantsOfTenant(ws.id, later(2_000)))
      expect(listed.map((g) => g.grantId)).toEqual([newer.id, older.id])
      expect(listed[1]).toEqual({
        grantId: older.id,
        tenantId: ws.id,
        payload: { ...older.payload, openid: { scope: "openid" } },
        createdAt: now,
        lastUsedAt: null
      })
      expect((await store((s) => s.grantsOfTenant(other.id, later(2_000)))).map((g) => g.grantId)).toEqual([
        elsewhere.id
      ])
    })

    it("touches a grant at most once an interval", async () => {
      const ws = await newWorkspace()
      const g = grant(ws.id)
      await store((s) => s.upsert(g, now))
      const lastUsed = async () =>
        (await store((s) => s.grantsOfTenant(ws.id, now))).find((x) => x.grantId === g.id)?.lastUsedAt
      await store((s) => s.touchGrant(g.id, later(1_000), 60_000))
      expect(await lastUsed()).toEqual(later(1_000))
      await store((s) => s.touchGrant(g.id, later(30_000), 60_000))
      expect(await lastUsed()).toEqual(later(1_000))
      await store((s) => s.touchGrant(g.id, later(61_000), 60_000))
      expect(await lastUsed()).toEqual(later(61_000))
      // Saving the grant again keeps its last use; an unknown grant is no failure.
      await store((s) => s.upsert(g, later(62_000)))
      expect(await lastUsed()).toEqual(later(61_000))
      await store((s) => s.touchGrant(newId(), later(1_000), 60_000))
    })

    it("revokes a grant only for its own workspace", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const g = grant(ws.id)
      const access = record({ grantId: g.id, tenantId: ws.id })
      const refresh = record({ model: "RefreshToken", grantId: g.id, tenantId: ws.id })
      const neighbour = grant(ws.id)
      for (const r of [g, access, refresh, neighbour]) await store((s) => s.upsert(r, now))

      // Another workspace cannot revoke it (nor can anyone revoke a token as if it were a grant).
      expect(await store((s) => s.revokeGrantOfTenant(other.id, g.id))).toBe(false)
      expect(await store((s) => s.revokeGrantOfTenant(ws.id, access.id))).toBe(false)
      expect(await found("Grant", g.id)).toEqual(g)
      expect(await found("AccessToken", access.id)).toEqual(access)

      expect(await store((s) => s.revokeGrantOfTenant(ws.id, g.id))).toBe(true)
      expect(await found("Grant", g.id)).toBeUndefined()
      expect(await found("AccessToken", access.id)).toBeUndefined()
      expect(await found("RefreshToken", refresh.id)).toBeUndefined()
      expect(await store((s) => s.revokeGrantOfTenant(ws.id, g.id))).toBe(false)
      expect((await store((s) => s.grantsOfTenant(ws.id, now))).map((x) => x.grantId)).toEqual([neighbour.id])
    })

    it("of concurrent revokes of one grant, exactly one revokes it", async () => {
      const ws = await newWorkspace()
      const g = grant(ws.id)
      await store((s) => s.upsert(g, now))
      const results = await Promise.all([
        store((s) => s.revokeGrantOfTenant(ws.id, g.id)),
        store((s) => s.revokeGrantOfTenant(ws.id, g.id))
      ])
      expect(results.filter((won) => won)).toHaveLength(1)
    })

    it("deletes records that expired before a time, and only those", async () => {
      // In 2001, before every other test's records: the sweep counts only these.
      const before = at("2001-06-01T00:00:00.000Z")
      const expired = record({ expiresAt: at("2001-05-31T23:59:59.000Z") })
      const consumedExpired = record({
        model: "AuthorizationCode",
        expiresAt: at("2001-05-01T00:00:00.000Z")
      })
      const open = record({ expiresAt: at("2001-06-01T00:00:01.000Z") })
      const forever = record({ model: "Client", expiresAt: null })
      for (const r of [expired, consumedExpired, open, forever]) await store((s) => s.upsert(r, before))
      await store((s) => s.consume("AuthorizationCode", consumedExpired.id, at("2001-04-30T00:00:00.000Z")))
      expect(await store((s) => s.deleteExpired(before))).toBe(2)
      expect(await store((s) => s.deleteExpired(before))).toBe(0)
      expect(await found("AccessToken", open.id, before)).toEqual(open)
      expect(await found("Client", forever.id, before)).toEqual(forever)
    })
  })
}
