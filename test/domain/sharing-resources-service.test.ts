// SharingResources over fake ports (test/support/fake-layer.ts; no storage adapter): the rules the
// resource use cases own, observed on the ports. A create spends the key's link budget before it
// writes, takes a slug asked for or retries random ones, and hashes the password; a read tells
// another account's slug from none; a patch is refused at a stale ETag, retried after a lost race
// without one, keeps the replaced Markdown source; a delete removes a file's blobs.
import { it } from "@effect/vitest"
import {
  BlobStore,
  CreateResourceInput,
  IdGen,
  InvalidationBus,
  JobQueue,
  LinkCreationPolicy,
  LOST_RACE_TRIES,
  NotionSource,
  PasswordHasher,
  PatchResourceInput,
  Principal,
  RateLimitStore,
  type ResourceRecord,
  type ResourceRecordOf,
  ResourceRepository,
  type ResourceUpdateOptions,
  ResourceSlugTaken,
  resourceEtag,
  SharingResources,
  SharingResourcesLive,
  StorageError,
  linkCreationBucket
} from "@folio/domain"
import { Effect, Layer, Option, Schema } from "effect"
import { describe, expect } from "vitest"
import { fakeLayer } from "../support/fake-layer.js"
import { resource } from "../storage/fixtures.js"

const TENANT = "00000000-0000-7000-8000-00000000000a"
const OTHER = "00000000-0000-7000-8000-00000000000b"
const create = Schema.decodeUnknownSync(CreateResourceInput)
const patch = Schema.decodeUnknownSync(PatchResourceInput)

interface FakeOptions {
  /** Records stored before the test. */
  readonly stored?: ReadonlyArray<ResourceRecord>
  /** Slugs an insert or update finds taken. */
  readonly takenSlugs?: ReadonlyArray<string>
  /** Inserts at a random slug refused before one lands. */
  readonly randomSlugClashes?: number
  /** Updates that lose a race (another writer's version lands first) before one can land. */
  readonly lostRaces?: number
  /** The hits the key's link bucket already holds this hour. */
  readonly linkHits?: number
  /** Whether removing a deleted resource's blobs fails. */
  readonly blobDeleteFails?: boolean
}

/** Fake ports over one in-memory table, recording the writes the use cases make. */
const fakePorts = (options: FakeOptions = {}) => {
  const table = new Map<string, ResourceRecord>((options.stored ?? []).map((r) => [r.id, r]))
  const inserts: Array<ResourceRecord> = []
  const updates: Array<{
    readonly next: ResourceRecord
    readonly options?: ResourceUpdateOptions | undefined
  }> = []
  const reads: Array<string> = []
  const deletedPrefixes: Array<string> = []
  const hits: Array<string> = []
  const taken = new Set(options.takenSlugs ?? [])
  let clashes = options.randomSlugClashes ?? 0
  let races = options.lostRaces ?? 0
  let ids = 0
  const live = (r: ResourceRecord | undefined) => (r === undefined ? Option.none() : Option.some(r))
  const bySlug = (slug: string) => [...table.values()].find((r) => r.slug === slug)

  const layer = SharingResourcesLive.pipe(
    Layer.provide(
      Layer.mergeAll(
        fakeLayer(ResourceRepository, {
          getBySlug: (tenantId, slug) =>
            Effect.sync(() => {
              reads.push(slug)
              return Option.filter(live(bySlug(slug)), (r) => r.tenantId === tenantId)
            }),
          getBySlugAnyTenant: (slug) => Effect.sync(() => live(bySlug(slug))),
          insert: (record) =>
            Effect.suspend(() => {
              if (taken.has(record.slug)) return Effect.fail(new ResourceSlugTaken(record.slug))
              if (clashes > 0) {
                clashes--
                return Effect.fail(new ResourceSlugTaken(record.slug))
              }
              inserts.push(record)
              table.set(record.id, record)
              return Effect.void
            }),
          update: (tenantId, next, updateOptions) =>
            Effect.suspend(() => {
              if (taken.has(next.slug)) return Effect.fail(new ResourceSlugTaken(next.slug))
              const current = table.get(next.id)
              if (current === undefined || current.tenantId !== tenantId)
                return Effect.succeed("stale" as const)
              if (races > 0) {
                // Another writer's version lands first.
                races--
                table.set(current.id, { ...current, rowVersion: current.rowVersion + 1 })
                return Effect.succeed("stale" as const)
              }
              if (current.rowVersion !== next.rowVersion - 1) return Effect.succeed("stale" as const)
              updates.push({ next, options: updateOptions })
              table.set(next.id, next)
              return Effect.succeed("updated" as const)
            }),
          softDelete: (tenantId, id) =>
            Effect.sync(() => {
              const current = table.get(id)
              if (current === undefined || current.tenantId !== tenantId) return false
              table.delete(id)
              return true
            })
        }),
        fakeLayer(IdGen, {
          uuid: Effect.sync(() => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`),
          uuidV7: Effect.sync(() => `00000000-0000-7000-8000-${String(++ids).padStart(12, "0")}`),
          randomBytes: (n) => Effect.sync(() => new Uint8Array(n).fill(++ids))
        }),
        fakeLayer(PasswordHasher, { hash: (password) => Effect.succeed(`hashed:${password}`) }),
        fakeLayer(RateLimitStore, {
          hit: (bucket, windowMs, nowMs) =>
            Effect.sync(() => {
              hits.push(bucket)
              return { count: (options.linkHits ?? 0) + hits.length, resetAt: nowMs + windowMs }
            })
        }),
        fakeLayer(BlobStore, {
          deletePrefix: (prefix) =>
            options.blobDeleteFails === true
              ? Effect.fail(new StorageError({ message: "the blob store is down" }))
              : Effect.sync(() => void deletedPrefixes.push(prefix))
        }),
        fakeLayer(InvalidationBus, {}),
        fakeLayer(NotionSource, {}),
        fakeLayer(JobQueue, {})
      )
    )
  )
  return { layer, table, inserts, updates, reads, deletedPrefixes, hits }
}

type Ports = ReturnType<typeof fakePorts>

/** Runs `use` on the service as a sharing key of TENANT, over `ports`. */
const asOwner = <A, E>(
  ports: Ports,
  use: (resources: SharingResources["Service"]) => Effect.Effect<A, E, Principal>
) =>
  SharingResources.use(use).pipe(
    Effect.provideService(Principal, {
      tenant: TENANT,
      service: "sharing",
      scopes: ["read", "write", "delete"],
      keyId: "key-1"
    }),
    Effect.provide(ports.layer)
  )

const link = (overrides: Partial<Omit<ResourceRecordOf<"link">, "type">> = {}) =>
  resource(TENANT, "link", { slug: "launch", ...overrides })

describe("SharingResources over fake ports: create", () => {
  it.effect(
    "stores a link of the caller's account at the slug asked for, its password hashed and labels normalized",
    () => {
      const ports = fakePorts()
      return asOwner(ports, (resources) =>
        Effect.gen(function* () {
          const made = yield* resources.create(
            create({
              type: "link",
              target_url: "https://example.com/a",
              slug: "spring-sale",
              password: "open sesame",
              labels: ["b", "a", "b"]
            })
          )
          expect(ports.inserts).toEqual([made])
          expect(made).toMatchObject({
            tenantId: TENANT,
            slug: "spring-sale",
            passwordHash: "hashed:open sesame",
            rowVersion: 1,
            viewCount: 0,
            storedBytes: 0
          })
          expect([...made.labels].sort()).toEqual(["a", "b"])
          expect(made.labels).toHaveLength(2)
          expect(ports.hits).toEqual([linkCreationBucket("key-1")])
        })
      )
    }
  )

  it.effect("refuses a link over the key's hourly budget before anything is written", () => {
    const ports = fakePorts({ linkHits: 1 })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const failure = yield* Effect.flip(
          resources.create(create({ type: "link", target_url: "https://example.com/a" }))
        )
        expect(failure._tag).toBe("RateLimited")
        expect(ports.inserts).toEqual([])
      })
    ).pipe(Effect.provideService(LinkCreationPolicy, { perKeyPerHour: 1 }))
  })

  it.effect("spends no link budget for other types", () => {
    const ports = fakePorts({ linkHits: 1_000 })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        yield* resources.create(create({ type: "markdown", body_markdown: "# Hi" }))
        expect(ports.hits).toEqual([])
        expect(ports.inserts).toHaveLength(1)
      })
    )
  })

  it.effect("answers ResourceSlugInUse for a slug asked for that is taken", () => {
    const ports = fakePorts({ takenSlugs: ["spring-sale"] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const failure = yield* Effect.flip(
          resources.create(create({ type: "markdown", body_markdown: "x", slug: "spring-sale" }))
        )
        expect(failure._tag).toBe("ResourceSlugInUse")
        expect(ports.inserts).toEqual([])
      })
    )
  })

  it.effect("tries another random slug after a clash, and gives up after five", () => {
    const lucky = fakePorts({ randomSlugClashes: 4 })
    const unlucky = fakePorts({ randomSlugClashes: 5 })
    const body = create({ type: "markdown", body_markdown: "x" })
    return Effect.gen(function* () {
      const made = yield* asOwner(lucky, (resources) => resources.create(body))
      expect(lucky.inserts).toEqual([made])
      const failure = yield* Effect.flip(asOwner(unlucky, (resources) => resources.create(body)))
      expect(failure._tag).toBe("ResourceSlugInUse")
      expect(unlucky.inserts).toEqual([])
    })
  })
})

describe("SharingResources over fake ports: read", () => {
  it.effect("tells another account's slug (403) from no resource at all (404)", () => {
    const ports = fakePorts({ stored: [link(), resource(OTHER, "link", { slug: "theirs" })] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        expect((yield* resources.get("launch")).slug).toBe("launch")
        expect((yield* Effect.flip(resources.get("theirs")))._tag).toBe("ResourceOfAnotherAccount")
        expect((yield* Effect.flip(resources.get("nothing-here")))._tag).toBe("ResourceNotFound")
      })
    )
  })
})

describe("SharingResources over fake ports: update", () => {
  it.effect("writes the next row version with only the fields sent", () => {
    const saved = link({ title: "Old", description: "Kept" })
    const ports = fakePorts({ stored: [saved] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const next = yield* resources.update("launch", patch({ title: "New" }), resourceEtag(saved))
        expect(next).toMatchObject({ title: "New", description: "Kept", rowVersion: saved.rowVersion + 1 })
        expect(ports.updates.map((u) => u.next)).toEqual([next])
      })
    )
  })

  it.effect("refuses a stale If-Match with ResourceChanged, writing nothing", () => {
    const saved = link()
    const ports = fakePorts({ stored: [saved] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const stale = resourceEtag({ ...saved, rowVersion: saved.rowVersion - 1 })
        const failure = yield* Effect.flip(resources.update("launch", patch({ title: "New" }), stale))
        expect(failure._tag).toBe("ResourceChanged")
        expect(ports.updates).toEqual([])
      })
    )
  })

  it.effect("with If-Match, a race lost between the read and the write is ResourceChanged", () => {
    const saved = link()
    const ports = fakePorts({ stored: [saved], lostRaces: 1 })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const failure = yield* Effect.flip(
          resources.update("launch", patch({ title: "New" }), resourceEtag(saved))
        )
        expect(failure._tag).toBe("ResourceChanged")
        expect(ports.updates).toEqual([])
      })
    )
  })

  it.effect("without If-Match, reads again after a lost race and lands on the newer version", () => {
    const saved = link()
    const ports = fakePorts({ stored: [saved], lostRaces: 3 })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const next = yield* resources.update("launch", patch({ title: "New" }), undefined)
        expect(next.rowVersion).toBe(saved.rowVersion + 4)
        expect(ports.reads).toHaveLength(4)
        expect(ports.updates).toHaveLength(1)
      })
    )
  })

  it.effect(`without If-Match, gives up with ResourceChanged after ${LOST_RACE_TRIES} lost races`, () => {
    const ports = fakePorts({ stored: [link()], lostRaces: LOST_RACE_TRIES })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const failure = yield* Effect.flip(resources.update("launch", patch({ title: "New" }), undefined))
        expect(failure._tag).toBe("ResourceChanged")
        expect(ports.reads).toHaveLength(LOST_RACE_TRIES)
        expect(ports.updates).toEqual([])
      })
    )
  })

  it.effect("answers ResourceSlugInUse for a new slug that is taken", () => {
    const ports = fakePorts({ stored: [link()], takenSlugs: ["taken"] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        const failure = yield* Effect.flip(resources.update("launch", patch({ slug: "taken" }), undefined))
        expect(failure._tag).toBe("ResourceSlugInUse")
        expect(ports.updates).toEqual([])
      })
    )
  })

  it.effect("refuses a field of another type, and a type change, writing nothing", () => {
    const ports = fakePorts({ stored: [link()] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        yield* Effect.flip(resources.update("launch", patch({ body_markdown: "# Hi" }), undefined))
        yield* Effect.flip(resources.update("launch", patch({ type: "markdown" }), undefined))
        expect(ports.updates).toEqual([])
      })
    )
  })

  it.effect("saves the replaced Markdown source as a version when the body changes, and only then", () => {
    const page = resource(TENANT, "markdown", { slug: "notes", data: { body: "# First" } })
    const ports = fakePorts({ stored: [page] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        yield* resources.update("notes", patch({ body_markdown: "# Second" }), undefined)
        yield* resources.update("notes", patch({ title: "Notes" }), undefined)
        expect(ports.updates.map((u) => u.options?.saveVersion?.body)).toEqual(["# First", undefined])
      })
    )
  })
})

describe("SharingResources over fake ports: delete", () => {
  it.effect("deletes the caller's resource and its blobs, even when removing them fails", () => {
    const file = resource(TENANT, "file", { slug: "report" })
    const ports = fakePorts({ stored: [file] })
    const failing = fakePorts({ stored: [file], blobDeleteFails: true })
    return Effect.gen(function* () {
      yield* asOwner(ports, (resources) => resources.delete("report"))
      expect(ports.table.has(file.id)).toBe(false)
      expect(ports.deletedPrefixes).toEqual([`sharing/${TENANT}/${file.id}/`])
      yield* asOwner(failing, (resources) => resources.delete("report"))
      expect(failing.table.has(file.id)).toBe(false)
    })
  })

  it.effect("leaves a link's blobs alone, and another account's resource in place", () => {
    const theirs = resource(OTHER, "link", { slug: "theirs" })
    const ports = fakePorts({ stored: [link(), theirs] })
    return asOwner(ports, (resources) =>
      Effect.gen(function* () {
        yield* resources.delete("launch")
        expect(ports.deletedPrefixes).toEqual([])
        expect((yield* Effect.flip(resources.delete("theirs")))._tag).toBe("ResourceOfAnotherAccount")
        expect(ports.table.has(theirs.id)).toBe(true)
      })
    )
  })
})
