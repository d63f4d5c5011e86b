// The embedded database's form reads kept in memory (read-cache.ts): only where this process alone
// writes (PgliteStorageLive, not PostgreSQL), every write seen by the next read (saves, publishes,
// soft deletes, inside and after transactions), a rolled-back write never kept, and a read that
// raced a write never outliving it.
import { rmSync } from "node:fs"
import { NodeServices } from "@effect/platform-node"
import { PgMigrator } from "@effect/sql-pg"
import {
  PgliteClientLive,
  PgliteStorageLive,
  PgStorageLive,
  SoleWriter,
  SqlRepositoriesLive
} from "@folio/adapters-storage"
import { FormRepository, type FormRecord, TenantRepository } from "@folio/domain"
import { Effect, Exit, Layer, ManagedRuntime, Option } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrations } from "../../packages/adapters-storage/src/sql/migrations.js"
import { ReadCache } from "../../packages/adapters-storage/src/sql/forms/read-cache.js"
import { freshPgliteDir } from "../support/pglite-dir.js"
import { form, next, publication, workspace } from "./fixtures.js"
import { createTempDatabase } from "./targets.js"

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

type Services = FormRepository | TenantRepository
const get = (f: FormRecord) => Effect.flatMap(FormRepository, (r) => r.get(f.workspaceId, f.id))
const titleOf = (read: Option.Option<FormRecord>) => Option.getOrUndefined(Option.map(read, (x) => x.title))

/** A workspace and a form in it, through the ports. */
const seeded = Effect.gen(function* () {
  const ws = workspace()
  yield* Effect.flatMap(TenantRepository, (r) => r.create(ws))
  const f = form(ws.id)
  yield* Effect.flatMap(FormRepository, (r) => r.insert(f))
  return f
})

/** A new form read twice, as the same caller would. */
const readTwice = Effect.gen(function* () {
  const f = yield* seeded
  const first = Option.getOrThrow(yield* get(f))
  const second = Option.getOrThrow(yield* get(f))
  return { f, first, second }
})

describe("the read cache", () => {
  it("keeps no read that began before a write, and stays within its budget, the oldest dropped first", () => {
    const cache = new ReadCache<{ readonly n: number }>(80, (v) => v.n)
    const before = cache.generation
    cache.drop("b")
    cache.put("a", { n: 1 }, before)
    expect(cache.get("a")).toBeUndefined()
    cache.put("a", { n: 10 }, cache.generation)
    cache.put("b", { n: 10 }, cache.generation)
    expect(cache.get("a")).toEqual({ n: 10 })
    // Past 80: "a", the oldest, goes; a value over an eighth of the budget is never kept.
    for (const key of ["c", "d", "e", "f", "g", "h"]) cache.put(key, { n: 10 }, cache.generation)
    cache.put("i", { n: 10 }, cache.generation)
    expect([cache.get("a"), cache.get("b"), cache.get("i")]).toEqual([undefined, { n: 10 }, { n: 10 }])
    cache.put("big", { n: 11 }, cache.generation)
    expect(cache.get("big")).toBeUndefined()
    cache.drop("i")
    expect(cache.get("i")).toBeUndefined()
  })
})

describe("form reads kept in memory", () => {
  it("on the embedded database (PgliteStorageLive): a read answers the kept, frozen form", async () => {
    const { dir, dataDir } = freshPgliteDir("folio-form-cache-")
    const runtime = ManagedRuntime.make(PgliteStorageLive({ dataDir }))
    try {
      await runtime.runPromise(
        Effect.gen(function* () {
          const { f, first, second } = yield* readTwice
          expect(second).toBe(first)
          expect(Object.isFrozen(first)).toBe(true)
          expect(Object.isFrozen(first.draftDefinition)).toBe(true)
          // No caller can change what the next one reads (modules run in strict mode).
          expect(() => {
            ;(first.draftDefinition as { blocks: Array<unknown> }).blocks.push({})
          }).toThrow(TypeError)
          // Another workspace's key never reads it.
          expect(
            Option.isNone(yield* Effect.flatMap(FormRepository, (r) => r.get(workspace().id, f.id)))
          ).toBe(true)
        })
      )
    } finally {
      await runtime.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.skipIf(TEST_DATABASE_URL === undefined)(
    "on PostgreSQL, which other instances write: every read reads",
    async () => {
      const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
      const runtime = ManagedRuntime.make(PgStorageLive({ url: db.url }))
      try {
        await runtime.runPromise(
          Effect.gen(function* () {
            const { first, second } = yield* readTwice
            expect(second).not.toBe(first)
            expect(second).toEqual(first)
          })
        )
      } finally {
        await runtime.dispose()
        await db.drop()
      }
    }
  )

  describe("with the SQL session beside the ports", () => {
    let dir: string
    let runtime: ManagedRuntime.ManagedRuntime<Services | SqlClient.SqlClient, unknown>
    const run = <A, E>(effect: Effect.Effect<A, E, Services | SqlClient.SqlClient>) =>
      runtime.runPromise(effect)
    /** The stored title, read past the repository. */
    const storedTitle = (f: FormRecord) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.map(
          sql<{
            title: string
            deleted: boolean
          }>`select title, deleted_at is not null as deleted from forms where id = ${f.id}`,
          (rows) => (rows[0]?.deleted === true ? undefined : rows[0]?.title)
        )
      )

    beforeAll(async () => {
      const fresh = freshPgliteDir("folio-form-cache-sql-")
      dir = fresh.dir
      runtime = ManagedRuntime.make(
        SqlRepositoriesLive.pipe(
          Layer.provide(
            PgMigrator.layer<never>({ loader: migrations }).pipe(Layer.provide(NodeServices.layer))
          ),
          Layer.provideMerge(PgliteClientLive({ dataDir: fresh.dataDir })),
          Layer.provide(Layer.succeed(SoleWriter, true))
        )
      )
    })
    afterAll(async () => {
      await runtime.dispose()
      rmSync(dir, { recursive: true, force: true })
    })

    it("reads every save, publish and soft delete at once; a save that lost its race changes nothing", async () => {
      await run(
        Effect.gen(function* () {
          const repo = yield* FormRepository
          const f = yield* seeded
          expect(titleOf(yield* get(f))).toBe("Customer survey")
          const renamed = next(f, { title: "Renamed" })
          yield* repo.save(renamed)
          expect(titleOf(yield* get(f))).toBe("Renamed")
          const stale = yield* Effect.exit(repo.save(next(f, { title: "Stale" })))
          expect(Exit.isFailure(stale)).toBe(true)
          expect(titleOf(yield* get(f))).toBe("Renamed")
          const { version, published } = publication(renamed)
          yield* repo.save(published, version)
          expect(Option.getOrThrow(yield* get(f)).status).toBe("published")
          expect(yield* repo.softDelete(f.workspaceId, f.id, new Date())).toBe(true)
          expect(Option.isNone(yield* get(f))).toBe(true)
        })
      )
    })

    it("lets a transaction read its own write, and never keeps one it rolled back", async () => {
      await run(
        Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          const repo = yield* FormRepository
          const f = yield* seeded
          expect(titleOf(yield* get(f))).toBe("Customer survey")
          const rolledBack = yield* Effect.exit(
            sql.withTransaction(
              Effect.gen(function* () {
                yield* repo.save(next(f, { title: "Never committed" }))
                expect(titleOf(yield* get(f))).toBe("Never committed")
                return yield* Effect.fail("roll back")
              })
            )
          )
          expect(Exit.isFailure(rolledBack)).toBe(true)
          expect(titleOf(yield* get(f))).toBe("Customer survey")
          expect(titleOf(yield* get(f))).toBe("Customer survey")
          yield* sql.withTransaction(repo.save(next(f, { title: "Committed" })))
          expect(titleOf(yield* get(f))).toBe("Committed")
        })
      )
    })

    it("never keeps a read that raced a write: after every round the kept form is the stored one", async () => {
      await run(
        Effect.gen(function* () {
          const repo = yield* FormRepository
          let current = yield* seeded
          for (let round = 0; round < 40; round++) {
            const written = next(current, { title: `Round ${round}` })
            // Reads before, beside and after the write, all in flight at once.
            yield* Effect.all([get(current), get(current), repo.save(written), get(current), get(current)], {
              concurrency: "unbounded"
            })
            current = written
            expect([titleOf(yield* get(current)), yield* storedTitle(current)]).toEqual([
              `Round ${round}`,
              `Round ${round}`
            ])
          }
          // And with deletes: a read in flight beside one never brings the form back.
          yield* Effect.all(
            [get(current), repo.softDelete(current.workspaceId, current.id, new Date()), get(current)],
            {
              concurrency: "unbounded"
            }
          )
          expect([Option.isNone(yield* get(current)), yield* storedTitle(current)]).toEqual([true, undefined])
        })
      )
    })
  })
})
