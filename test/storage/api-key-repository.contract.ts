// Contract of ApiKeyRepository: keys found by prefix, listed per tenant, revoked once, of either service.
// Run by register-contracts.ts against every storage target.
import { type ApiKeyRecord, ApiKeyRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, uuid } from "./fixtures.js"

export const registerApiKeyContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  describe(`ApiKeyRepository [${target}]`, () => {
    it("finds a key by prefix, lists per tenant and revokes once", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const prefix = Math.random().toString(36).slice(2, 8).padEnd(12, "x")
      const key: ApiKeyRecord = {
        id: uuid(),
        tenantId: ws.id,
        service: "forms",
        name: "ci",
        prefix,
        hash: "b".repeat(64),
        scopes: ["forms:read", "files:read"],
        createdAt: at("2026-01-02T00:00:00.000Z"),
        revokedAt: null,
        lastUsedAt: null,
        expiresAt: null,
        createdBy: null,
        tenantDisabled: false
      }
      await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
      expect(
        Option.getOrThrow(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix)))))
      ).toEqual(key)
      expect(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(ws.id))))).toEqual([key])
      expect(await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(other.id))))).toEqual([])
      // Another tenant cannot revoke it.
      const revokedAt = at("2026-01-03T00:00:00.000Z")
      expect(
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(other.id, key.id, revokedAt))))
      ).toBe(false)
      expect(
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(ws.id, key.id, revokedAt))))
      ).toBe(true)
      expect(
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.revoke(ws.id, key.id, revokedAt))))
      ).toBe(false)
      const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(prefix))))
      expect(Option.getOrThrow(found).revokedAt).toEqual(revokedAt)
    })

    it("keeps each key's service; a tenant holds keys of both services", async () => {
      const ws = await newWorkspace()
      const base = {
        tenantId: ws.id,
        name: "ci",
        hash: "c".repeat(64),
        createdAt: at("2026-01-02T00:00:00.000Z"),
        revokedAt: null,
        lastUsedAt: null,
        expiresAt: null,
        createdBy: null,
        tenantDisabled: false
      }
      const prefixOf = () => Math.random().toString(36).slice(2, 8).padEnd(12, "y")
      const forms: ApiKeyRecord = {
        ...base,
        id: uuid(),
        service: "forms",
        prefix: prefixOf(),
        scopes: ["forms:read"]
      }
      const sharing: ApiKeyRecord = {
        ...base,
        id: uuid(),
        service: "sharing",
        prefix: prefixOf(),
        scopes: ["read"]
      }
      for (const key of [forms, sharing])
        await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.create(key))))
      for (const key of [forms, sharing]) {
        const found = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.findByPrefix(key.prefix))))
        expect(Option.getOrThrow(found)).toEqual(key)
      }
      const listed = await run(ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(ws.id))))
      expect(listed).toEqual([forms, sharing].sort((a, b) => (a.id < b.id ? -1 : 1)))
    })
  })
}
