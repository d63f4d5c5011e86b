// A ResourceRepository decorator that answers the public slug lookup (`getBySlugAnyTenant`, the
// redirect's only read) from memory, so a warm redirect touches no database. Every write through it
// (insert, update, restore, delete) publishes the slugs it changed on the InvalidationBus topic
// `resources`, and every instance drops those slugs when it hears them. Entries also expire (a lost
// LISTEN connection drops messages), sooner for resources with `max_views`, whose view count other
// instances move; views written by this process drop their entries at once. The same cache answers
// WarmResources, the synchronous read of the redirect's fast path.
import {
  RESOURCES_TOPIC,
  InvalidationBus,
  type ResourceRecord,
  ResourceRepository,
  WarmResources
} from "@folio/domain"
import { Clock, Context, Effect, Layer, Option } from "effect"

/** Safety net for a missed invalidation (the bus resubscribing after a lost connection). */
export const RESOURCE_CACHE_TTL_MS = 60_000
/** Resources with `max_views`: other instances' views show up within this (plus their flush). */
export const COUNTED_RESOURCE_TTL_MS = 1_000
/** Unknown slugs, remembered briefly (a create publishes its slug anyway). */
const MISS_TTL_MS = 5_000
export const MAX_CACHED_RESOURCES = 10_000

interface Entry {
  readonly value: Option.Option<ResourceRecord>
  readonly until: number
}

export const CachedResourceRepositoryLive = Layer.effectContext(
  Effect.gen(function* () {
    const inner = yield* ResourceRepository
    const bus = yield* InvalidationBus
    const cache = new Map<string, Entry>()
    // Bumped by every drop: a lookup that started before a drop does not store what it read.
    let epoch = 0
    const drop = (slug: string) => {
      epoch++
      cache.delete(slug)
    }
    yield* bus.subscribe(RESOURCES_TOPIC, (slug) => Effect.sync(() => drop(slug)))

    const published = (slugs: ReadonlyArray<string>) =>
      Effect.forEach(
        new Set(slugs),
        (slug) =>
          Effect.andThen(
            Effect.sync(() => drop(slug)),
            Effect.catch(bus.publish(RESOURCES_TOPIC, slug), (e) =>
              Effect.logWarning("resource invalidation not published; other instances expire it", e)
            )
          ),
        { discard: true }
      )
    const slugOf = (tenantId: string, id: string) =>
      Effect.map(
        inner.get(tenantId, id),
        Option.map((r) => r.slug)
      )

    const peek = (slug: string, now: number) => {
      const hit = cache.get(slug)
      return hit !== undefined && hit.until > now ? hit.value : undefined
    }

    const repository = ResourceRepository.of({
      ...inner,
      getBySlugAnyTenant: (slug) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const held = peek(slug, now)
          if (held !== undefined) return Effect.succeed(held)
          const started = epoch
          return Effect.map(inner.getBySlugAnyTenant(slug), (value) => {
            if (epoch !== started) return value
            if (cache.size >= MAX_CACHED_RESOURCES) {
              const oldest = cache.keys().next()
              if (oldest.done !== true) cache.delete(oldest.value)
            }
            const ttl = Option.match(value, {
              onNone: () => MISS_TTL_MS,
              onSome: (r) => (r.maxViews === null ? RESOURCE_CACHE_TTL_MS : COUNTED_RESOURCE_TTL_MS)
            })
            cache.delete(slug)
            cache.set(slug, { value, until: now + ttl })
            return value
          })
        }),
      insert: (r, options) => Effect.tap(inner.insert(r, options), () => published([r.slug])),
      update: (tenantId, next, options) =>
        Effect.gen(function* () {
          const before = yield* slugOf(tenantId, next.id)
          const outcome = yield* inner.update(tenantId, next, options)
          if (outcome === "updated") yield* published([...Option.toArray(before), next.slug])
          return outcome
        }),
      softDelete: (tenantId, id, at) =>
        Effect.gen(function* () {
          const before = yield* slugOf(tenantId, id)
          const deleted = yield* inner.softDelete(tenantId, id, at)
          if (deleted) yield* published(Option.toArray(before))
          return deleted
        }),
      restoreMarkdownVersion: (tenantId, resourceId, versionId, saveAs) =>
        Effect.tap(inner.restoreMarkdownVersion(tenantId, resourceId, versionId, saveAs), (outcome) =>
          outcome._tag === "Restored" ? published([outcome.resource.slug]) : Effect.void
        ),
      addViews: (counts, clicks) =>
        Effect.tap(inner.addViews(counts, clicks), () =>
          Effect.sync(() => {
            for (const [slug, entry] of cache) {
              // Only `max_views` reads the count; other entries keep serving without a read.
              const r = Option.getOrUndefined(entry.value)
              if (r !== undefined && r.maxViews !== null && counts.has(r.id)) drop(slug)
            }
          })
        )
    })
    return Context.make(ResourceRepository, repository).pipe(
      Context.add(WarmResources, WarmResources.of({ peek }))
    )
  })
)
