// Contract of TenantRepository: tenants created, counted, given features, disabled and enabled.
// Run by register-contracts.ts against every storage target.
import { type ApiKeyRecord, ApiKeyRepository, TenantRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"

export const registerTenantContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  describe(`TenantRepository [${target}]`, () => {
    it("creates, reads, counts and sets features", async () => {
      const before = await run(TenantRepository.pipe(Effect.flatMap((r) => r.count)))
      const ws = await newWorkspace()
      const read = await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))
      expect(Option.getOrThrow(read)).toEqual(ws)
      expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.count)))).toBe(before + 1)
      expect(
        await run(TenantRepository.pipe(Effect.flatMap((r) => r.setFeatures(ws.id, { ranking: false }))))
      ).toBe(true)
      const updated = await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))
      expect(Option.getOrThrow(updated).features).toEqual({ ranking: false })
      expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setFeatures(uuid(), {}))))).toBe(false)
      expect(Option.isNone(await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(uuid())))))).toBe(true)
      const all = await run(TenantRepository.pipe(Effect.flatMap((r) => r.list)))
      expect(all.map((w) => w.id)).toContain(ws.id)
    })

    it("merges feature changes, keeping the other flags, and two concurrent merges both land", async () => {
      const ws = await newWorkspace()
      const merge = (changes: Record<string, boolean>) =>
        run(TenantRepository.pipe(Effect.flatMap((r) => r.mergeFeatures(ws.id, changes))))
      expect(Option.getOrThrow(await merge({ ranking: false, custom: true }))).toEqual({
        ranking: false,
        custom: true
      })
      await Promise.all([merge({ matrix: false }), merge({ fileUpload: false }), merge({ ranking: true })])
      const read = await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))
      expect(Option.getOrThrow(read).features).toEqual({
        ranking: true,
        custom: true,
        matrix: false,
        fileUpload: false
      })
      expect(
        Option.isNone(await run(TenantRepository.pipe(Effect.flatMap((r) => r.mergeFeatures(uuid(), {})))))
      ).toBe(true)
    })

    it("disables and enables a tenant, and its keys say so when looked up", async () => {
      const ws = await newWorkspace()
      const prefix = Math.random().toString(36).slice(2, 8).padEnd(12, "d")
      const key: ApiKeyRecord = {
        id: uuid(),
        tenantId: ws.id,
        service: "sharing",
        name: "d",
        prefix,
        hash: "d".repeat(64),
        scopes: ["read"],
        createdAt: at("2026-01-02T00:00:00.000Z"),
        revokedAt: null,
        lastUsedAt: null,
        expiresAt: null,
        createdBy: null,
        tenantDisabled: false
      }
      await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
      const when = at("2026-03-01T00:00:00.000Z")
      expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(ws.id, when))))).toBe(true)
      expect(
        Option.getOrThrow(await run(TenantRepository.pipe(Effect.flatMap((r) => r.get(ws.id))))).disabledAt
      ).toEqual(when)
      const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
      expect(Option.getOrThrow(found).tenantDisabled).toBe(true)
      const disabled = () => run(TenantRepository.pipe(Effect.flatMap((r) => r.listDisabled)))
      expect(await disabled()).toContain(ws.id)
      expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(ws.id, null))))).toBe(true)
      expect(await disabled()).not.toContain(ws.id)
      const again = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
      expect(Option.getOrThrow(again).tenantDisabled).toBe(false)
      expect(await run(TenantRepository.pipe(Effect.flatMap((r) => r.setDisabled(uuid(), null))))).toBe(false)
    })
  })
}
