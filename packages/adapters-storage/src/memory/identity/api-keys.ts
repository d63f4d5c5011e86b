// In-memory ApiKeyRepository: the twin of sql/identity/api-keys.ts.
import { ApiKeyRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const makeApiKeyRepository = Effect.map(Effect.service(MemoryStore), ({ keys, tenants }) =>
  ApiKeyRepository.of({
    create: (key) => Effect.sync(() => void keys.set(key.id, key)),
    findByPrefix: (prefix) =>
      Effect.sync(() =>
        Option.map(Option.fromNullishOr([...keys.values()].find((k) => k.prefix === prefix)), (k) => ({
          ...k,
          tenantDisabled: (tenants.get(k.tenantId)?.disabledAt ?? null) !== null
        }))
      ),
    list: (tenantId) =>
      Effect.sync(() =>
        [...keys.values()].filter((k) => k.tenantId === tenantId).sort((a, b) => (a.id < b.id ? -1 : 1))
      ),
    revoke: (tenantId, id, at) =>
      Effect.sync(() => {
        const key = keys.get(id)
        if (key === undefined || key.tenantId !== tenantId || key.revokedAt !== null) return false
        keys.set(id, { ...key, revokedAt: at })
        return true
      })
  })
)

export const MemoryApiKeyRepositoryLive = Layer.effect(ApiKeyRepository, makeApiKeyRepository)
