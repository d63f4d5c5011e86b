// In-memory TenantRepository: the twin of sql/identity/tenants.ts.
import { TenantRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const makeTenantRepository = Effect.map(Effect.service(MemoryStore), ({ tenants }) =>
  TenantRepository.of({
    create: (tenant) => Effect.sync(() => void tenants.set(tenant.id, tenant)),
    get: (id) => Effect.sync(() => Option.fromNullishOr(tenants.get(id))),
    list: Effect.sync(() =>
      [...tenants.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    ),
    count: Effect.sync(() => tenants.size),
    listDisabled: Effect.sync(() =>
      [...tenants.values()].filter((t) => t.disabledAt !== null).map((t) => t.id)
    ),
    setDisabled: (id, at) =>
      Effect.sync(() => {
        const tenant = tenants.get(id)
        if (tenant === undefined) return false
        tenants.set(id, { ...tenant, disabledAt: at })
        return true
      }),
    rename: (id, name) =>
      Effect.sync(() => {
        const tenant = tenants.get(id)
        if (tenant === undefined) return false
        tenants.set(id, { ...tenant, name })
        return true
      }),
    setMemberKeyScopes: (id, service, scopes) =>
      Effect.sync(() => {
        const tenant = tenants.get(id)
        if (tenant === undefined) return false
        tenants.set(id, { ...tenant, memberKeyScopes: { ...tenant.memberKeyScopes, [service]: [...scopes] } })
        return true
      }),
    setFeatures: (id, features) =>
      Effect.sync(() => {
        const tenant = tenants.get(id)
        if (tenant === undefined) return false
        tenants.set(id, { ...tenant, features: { ...features } })
        return true
      }),
    mergeFeatures: (id, changes) =>
      Effect.sync(() => {
        const tenant = tenants.get(id)
        if (tenant === undefined) return Option.none()
        const features = { ...tenant.features, ...changes }
        tenants.set(id, { ...tenant, features })
        return Option.some(features)
      })
  })
)

export const MemoryTenantRepositoryLive = Layer.effect(TenantRepository, makeTenantRepository)
