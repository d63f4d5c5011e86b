// An ApiKeyRepository decorator that answers key lookups from memory for a few seconds, so
// authenticating a request costs no database round trip. A revocation made through this process
// takes effect at once; one made elsewhere (the CLI, another server) within KEY_CACHE_TTL_MS.
// Unknown prefixes are remembered briefly too, so a flood of made-up keys does not reach the database.
import { type ApiKeyRecord, ApiKeyRepository } from "@folio/domain"
import { Clock, Effect, Layer, Option } from "effect"

export const KEY_CACHE_TTL_MS = 5_000
const MISS_TTL_MS = 1_000
const MAX_ENTRIES = 10_000

export const CachedApiKeyRepositoryLive = Layer.effect(
  ApiKeyRepository,
  Effect.gen(function* () {
    const inner = yield* ApiKeyRepository
    const cache = new Map<string, { readonly value: Option.Option<ApiKeyRecord>; readonly until: number }>()
    return ApiKeyRepository.of({
      ...inner,
      findByPrefix: (prefix) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const hit = cache.get(prefix)
          if (hit !== undefined && hit.until > now) return Effect.succeed(hit.value)
          return Effect.map(inner.findByPrefix(prefix), (value) => {
            if (cache.size >= MAX_ENTRIES) cache.clear()
            cache.set(prefix, { value, until: now + (Option.isSome(value) ? KEY_CACHE_TTL_MS : MISS_TTL_MS) })
            return value
          })
        }),
      revoke: (tenantId, keyId, at) =>
        Effect.tap(inner.revoke(tenantId, keyId, at), () =>
          Effect.sync(() => {
            for (const [prefix, entry] of cache) {
              if (Option.isSome(entry.value) && entry.value.value.id === keyId) cache.delete(prefix)
            }
          })
        ),
      create: (record) =>
        Effect.tap(inner.create(record), () => Effect.sync(() => cache.delete(record.prefix)))
    })
  })
)
