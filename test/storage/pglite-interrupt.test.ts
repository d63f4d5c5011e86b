// The embedded database as Folio starts it, and how it survives interrupted statements: a request
// that goes away mid-query makes the SQL client abort and cancel its statement, and the next
// statements must still run (Effect 4's client cancels on a side connection, which PGlite's single
// session cannot honour).
import { rmSync } from "node:fs"
import { PgliteClientLive } from "@folio/adapters-storage"
import { Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { freshPgliteDir } from "../support/pglite-dir.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

// A copy of the run's migrated database: PGlite's session is the point, not a first start.
const { dir, dataDir } = freshPgliteDir("folio-test-pglite-interrupt-")
const scope = Effect.runSync(Scope.make())
let run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>

beforeAll(async () => {
  const context = await Effect.runPromise(Layer.buildWithScope(PgliteClientLive({ dataDir }), scope))
  run = (effect) => Effect.runPromise(Effect.provide(effect, context))
}, 60_000)
afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

describe("PGlite under interrupted statements", () => {
  // PGlite runs a statement synchronously on this thread, so which side of the race wins depends on
  // the transport; either way the session must stay usable.
  it("answers the next statements after a statement raced by a timeout", async () => {
    for (let round = 0; round < 5; round++) {
      const slow = Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`select pg_sleep(0.3)`)
      await run(Effect.exit(Effect.timeout(slow, Duration.millis(20))))
      const rows = await run(
        Effect.flatMap(
          Effect.service(SqlClient.SqlClient),
          (sql) => sql<{ n: number }>`select ${round}::int as n`
        )
      )
      expect(rows).toEqual([{ n: round }])
    }
  }, 60_000)

  it("answers after many queued statements are interrupted at once, as when clients disconnect", async () => {
    for (let round = 0; round < 5; round++) {
      const query = Effect.flatMap(
        Effect.service(SqlClient.SqlClient),
        (sql) => sql`select pg_sleep(0.02), ${round}::int as n`
      )
      const many = Effect.all(
        Array.from({ length: 32 }, () => query),
        { concurrency: "unbounded" }
      )
      const exit = await run(Effect.exit(Effect.timeout(many, Duration.millis(30 + round * 7))))
      // 32 statements of 20 ms each cannot all finish in time: most were interrupted in the queue.
      expect(Exit.isFailure(exit)).toBe(true)
      const rows = await run(
        Effect.flatMap(
          Effect.service(SqlClient.SqlClient),
          (sql) => sql<{ n: number }>`select ${round}::int as n`
        )
      )
      expect(rows).toEqual([{ n: round }])
    }
  }, 120_000)
})

describe("PGlite as Folio starts it", () => {
  const sql = <A extends object>(text: string) =>
    run(Effect.flatMap(Effect.service(SqlClient.SqlClient), (client) => client.unsafe<A>(text)))

  // PGlite zeroes its whole buffer cache at every start (decision 0029: ~3 ms a MB).
  it("has a 16 MB buffer cache", async () => {
    expect(await sql<{ shared_buffers: string }>("show shared_buffers")).toEqual([{ shared_buffers: "16MB" }])
  })

  // A statement's messages reach PGlite in one call: one that fails must still end at its Sync,
  // leaving the session usable and a failed transaction rolled back.
  it("answers after a failing statement, and rolls back a transaction it failed", async () => {
    await sql("create table if not exists batch_probe (id int primary key)")
    const failed = await run(
      Effect.exit(
        Effect.flatMap(Effect.service(SqlClient.SqlClient), (client) =>
          client.withTransaction(
            Effect.andThen(
              client`insert into batch_probe values (1)`,
              client`insert into batch_probe values (1)`
            )
          )
        )
      )
    )
    expect(Exit.isFailure(failed)).toBe(true)
    expect(await sql<{ n: number }>("select count(*)::int as n from batch_probe")).toEqual([{ n: 0 }])
  })
})
