// The request-path decorators of the storage ports: buffered rate-limit counting (first hit of a
// window from the shared store, later hits in memory, batches written every 100 ms, exact in one
// process, converging across two) and the key lookup cache (revocations through it apply at once,
// others within the TTL).
import {
  BufferedRateLimitStoreLive,
  CachedApiKeyRepositoryLive,
  KEY_CACHE_TTL_MS,
  MemoryStorageLive
} from "@folio/adapters-storage"
import { type ApiKeyRecord, ApiKeyRepository, RateLimitStore } from "@folio/domain"
import { it } from "@effect/vitest"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"

const MINUTE = 60_000

describe("buffered rate-limit counting", () => {
  it.live("counts exactly in one process and writes the shared total in batches", () =>
    Effect.gen(function* () {
      const inner = yield* Effect.provide(RateLimitStore, MemoryStorageLive)
      const base = Layer.succeed(RateLimitStore, inner)
      const scopeA = yield* Scope.make()
      const scopeB = yield* Scope.make()
      const a = Context.get(
        yield* Layer.buildWithScope(Layer.provide(BufferedRateLimitStoreLive, base), scopeA),
        RateLimitStore
      )
      const b = Context.get(
        yield* Layer.buildWithScope(Layer.provide(BufferedRateLimitStoreLive, base), scopeB),
        RateLimitStore
      )
      const now = Date.now()
      const counts: Array<number> = []
      for (let i = 0; i < 5; i++) counts.push((yield* a.hit("key:1", MINUTE, now)).count)
      expect(counts).toEqual([1, 2, 3, 4, 5])
      // Only the first hit reached the shared store so far.
      expect((yield* inner.peek("key:1", MINUTE, now)).count).toBe(1)
      yield* Effect.sleep("250 millis")
      expect((yield* inner.peek("key:1", MINUTE, now)).count).toBe(5)
      // A second process learns the shared total on its first hit; a process sees the other's hits
      // when it next writes its own.
      expect((yield* b.hit("key:1", MINUTE, now)).count).toBe(6)
      yield* a.hitMany(["key:1", "ip:x"], MINUTE, now)
      yield* b.hit("key:1", MINUTE, now)
      yield* Effect.sleep("250 millis")
      expect((yield* inner.peek("key:1", MINUTE, now)).count).toBe(8)
      yield* a.hit("key:1", MINUTE, now)
      yield* Effect.sleep("250 millis")
      expect((yield* a.peek("key:1", MINUTE, now)).count).toBe(9)
      // Closing a process writes what it still holds.
      yield* a.hit("key:1", MINUTE, now)
      yield* Scope.close(scopeA, Exit.void)
      expect((yield* inner.peek("key:1", MINUTE, now)).count).toBe(10)
      yield* Scope.close(scopeB, Exit.void)
    })
  )
})

describe("buffered rate-limit counting across processes", () => {
  it.live("learns the other process's hits from the shared total within a few flushes", () =>
    Effect.gen(function* () {
      const inner = yield* Effect.provide(RateLimitStore, MemoryStorageLive)
      const base = Layer.succeed(RateLimitStore, inner)
      const store = (scope: Scope.Closeable) =>
        Effect.map(Layer.buildWithScope(Layer.provide(BufferedRateLimitStoreLive, base), scope), (c) =>
          Context.get(c, RateLimitStore)
        )
      const scopeA = yield* Scope.make()
      const scopeB = yield* Scope.make()
      const a = yield* store(scopeA)
      const b = yield* store(scopeB)
      const now = Date.now()
      expect((yield* a.hit("key:2", MINUTE, now)).count).toBe(1)
      expect((yield* b.hit("key:2", MINUTE, now)).count).toBe(2)
      expect((yield* b.hit("key:2", MINUTE, now)).count).toBe(3)
      yield* Effect.sleep("300 millis")
      // a never wrote since its first hit, yet it counts b's two on its next one.
      expect((yield* a.hit("key:2", MINUTE, now)).count).toBe(4)
      yield* Scope.close(scopeA, Exit.void)
      yield* Scope.close(scopeB, Exit.void)
    })
  )
})

describe("the key lookup cache", () => {
  const record: ApiKeyRecord = {
    id: "00000000-0000-4000-8000-000000000001",
    tenantId: "00000000-0000-4000-8000-000000000002",
    service: "forms",
    name: "k",
    prefix: "AAAAAAAAAAAA",
    hash: "0".repeat(64),
    scopes: ["forms:read"],
    createdAt: new Date(0),
    revokedAt: null,
    lastUsedAt: null,
    expiresAt: null,
    createdBy: null,
    tenantDisabled: false
  }

  it.effect(
    "serves lookups from memory, forgets a key revoked through it at once and others after the TTL",
    () =>
      Effect.gen(function* () {
        const keys = yield* Effect.provide(ApiKeyRepository, MemoryStorageLive)
        const cached = yield* Effect.provide(
          ApiKeyRepository,
          Layer.provide(CachedApiKeyRepositoryLive, Layer.succeed(ApiKeyRepository, keys))
        )
        yield* cached.create(record)
        expect(Option.getOrThrow(yield* cached.findByPrefix(record.prefix)).revokedAt).toBeNull()
        // Revoked elsewhere (another process): still served from the cache until the TTL passes.
        yield* keys.revoke(record.tenantId, record.id, new Date(1))
        expect(Option.getOrThrow(yield* cached.findByPrefix(record.prefix)).revokedAt).toBeNull()
        yield* TestClock.adjust(KEY_CACHE_TTL_MS + 1)
        expect(Option.getOrThrow(yield* cached.findByPrefix(record.prefix)).revokedAt).not.toBeNull()

        const second = { ...record, id: "00000000-0000-4000-8000-000000000003", prefix: "BBBBBBBBBBBB" }
        yield* cached.create(second)
        yield* cached.findByPrefix(second.prefix)
        yield* cached.revoke(second.tenantId, second.id, new Date(2))
        expect(Option.getOrThrow(yield* cached.findByPrefix(second.prefix)).revokedAt).not.toBeNull()
      })
  )
})
