// The cached public slug lookup: warm lookups reach no storage; writes through any instance's
// cache drop the slugs they changed on every instance (two caches over one store and one bus).
import {
  CachedResourceRepositoryLive,
  MemoryInvalidationBusLive,
  MemoryStorageLive
} from "@folio/adapters-storage"
import { ResourceRepository, type ResourceRepositoryService } from "@folio/domain"
import { Context, Effect, Layer, Option } from "effect"
import { describe, expect, it } from "vitest"
import { nextResource, resource } from "../storage/fixtures.js"

const tenant = "00000000-0000-4000-8000-000000000001"

describe("cached resource repository", () => {
  it("answers warm slug lookups from memory and drops changed slugs on every instance", async () => {
    const built = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const storage = yield* Layer.build(Layer.merge(MemoryStorageLive, MemoryInvalidationBusLive))
          const inner = Context.get(storage, ResourceRepository)
          let reads = 0
          const counting = Layer.succeed(
            ResourceRepository,
            ResourceRepository.of({
              ...inner,
              getBySlugAnyTenant: (slug) =>
                Effect.suspend(() => {
                  reads++
                  return inner.getBySlugAnyTenant(slug)
                })
            })
          )
          const instance = () =>
            Effect.map(
              Layer.build(
                CachedResourceRepositoryLive.pipe(
                  Layer.provide(Layer.merge(Layer.succeedContext(storage), counting))
                )
              ),
              (c) => Context.get(c, ResourceRepository)
            )
          const a: ResourceRepositoryService = yield* instance()
          const b: ResourceRepositoryService = yield* instance()
          const r = resource(tenant, "link")
          const slugOf = (repo: ResourceRepositoryService, slug: string) =>
            Effect.map(
              repo.getBySlugAnyTenant(slug),
              Option.map((x) => x.title)
            )

          // A miss is remembered too; the insert through A drops it on B.
          expect(yield* slugOf(b, r.slug)).toEqual(Option.none())
          yield* a.insert(r)
          expect(yield* slugOf(b, r.slug)).toEqual(Option.some("Launch notes"))
          const warm = reads
          for (let i = 0; i < 100; i++) yield* slugOf(b, r.slug)
          expect(reads).toBe(warm)

          // A rename through A: B finds nothing at the old slug and the resource at the new one.
          const renamed = nextResource(r, { slug: `${r.slug}-2`, title: "Renamed" })
          expect(yield* a.update(tenant, renamed)).toBe("updated")
          expect(yield* slugOf(b, r.slug)).toEqual(Option.none())
          expect(yield* slugOf(b, renamed.slug)).toEqual(Option.some("Renamed"))

          // A delete through A: gone on B at once.
          expect(yield* a.softDelete(tenant, r.id, new Date())).toBe(true)
          expect(yield* slugOf(b, renamed.slug)).toEqual(Option.none())
          return reads
        })
      )
    )
    expect(built).toBeGreaterThan(0)
  })
})
