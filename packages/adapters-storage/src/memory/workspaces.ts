// In-memory WorkspaceRepository and ApiKeyRepository: the twins of sql/workspaces.ts.
import { ApiKeyRepository, WorkspaceRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "./store.js"

export const makeWorkspaceRepository = Effect.map(Effect.service(MemoryStore), ({ workspaces }) =>
  WorkspaceRepository.of({
    create: (ws) => Effect.sync(() => void workspaces.set(ws.id, ws)),
    get: (id) => Effect.sync(() => Option.fromNullishOr(workspaces.get(id))),
    list: Effect.sync(() =>
      [...workspaces.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    ),
    count: Effect.sync(() => workspaces.size),
    setFeatures: (id, features) =>
      Effect.sync(() => {
        const ws = workspaces.get(id)
        if (ws === undefined) return false
        workspaces.set(id, { ...ws, features: { ...features } })
        return true
      })
  })
)

export const makeApiKeyRepository = Effect.map(Effect.service(MemoryStore), ({ keys }) =>
  ApiKeyRepository.of({
    create: (key) => Effect.sync(() => void keys.set(key.id, key)),
    findByPrefix: (prefix) =>
      Effect.sync(() => Option.fromNullishOr([...keys.values()].find((k) => k.prefix === prefix))),
    list: (workspaceId) =>
      Effect.sync(() =>
        [...keys.values()].filter((k) => k.workspaceId === workspaceId).sort((a, b) => (a.id < b.id ? -1 : 1))
      ),
    revoke: (workspaceId, id, at) =>
      Effect.sync(() => {
        const key = keys.get(id)
        if (key === undefined || key.workspaceId !== workspaceId || key.revokedAt !== null) return false
        keys.set(id, { ...key, revokedAt: at })
        return true
      })
  })
)

export const MemoryWorkspaceRepositoryLive = Layer.effect(WorkspaceRepository, makeWorkspaceRepository)
export const MemoryApiKeyRepositoryLive = Layer.effect(ApiKeyRepository, makeApiKeyRepository)
