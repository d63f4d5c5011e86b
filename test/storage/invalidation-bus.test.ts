// InvalidationBus: a publish reaches every subscriber of its topic and no other, the publisher's own
// included; on PostgreSQL, across two clients (two app instances) of one database.
import { MemoryInvalidationBusLive, PgInvalidationBusLive } from "@folio/adapters-storage"
import { InvalidationBus } from "@folio/domain"
import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { describe, expect, it } from "vitest"
import { createTempDatabase, TEST_DATABASE_URL } from "./targets.js"

const until = async (check: () => boolean, ms = 3000) => {
  const deadline = Date.now() + ms
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20))
  return check()
}

/** A bus service built in its own scope (one "instance"). */
const instance = async (layer: Layer.Layer<InvalidationBus, unknown>) => {
  const scope = Effect.runSync(Scope.make())
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const bus = (effect: Effect.Effect<unknown, unknown, InvalidationBus | Scope.Scope>) =>
    Effect.runPromise(
      Effect.provide(Effect.provideService(effect, Scope.Scope, scope), context) as Effect.Effect<unknown>
    )
  return { bus, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

const subscribe = (topic: string, heard: Array<string>) =>
  Effect.flatMap(Effect.service(InvalidationBus), (bus) =>
    bus.subscribe(topic, (key) => Effect.sync(() => heard.push(key)))
  )
const publish = (topic: string, key: string) =>
  Effect.flatMap(Effect.service(InvalidationBus), (bus) => bus.publish(topic, key))

describe("InvalidationBus [memory]", () => {
  it("delivers a topic's keys to its subscribers only, the publisher included", async () => {
    const one = await instance(MemoryInvalidationBusLive)
    const heard: Array<string> = []
    const other: Array<string> = []
    await one.bus(subscribe("resources", heard))
    await one.bus(subscribe("elsewhere", other))
    await one.bus(publish("resources", "slug-a"))
    expect(heard).toEqual(["slug-a"])
    expect(other).toEqual([])
    await one.close()
  })
})

describe.skipIf(TEST_DATABASE_URL === undefined)("InvalidationBus [postgres]", () => {
  it("carries a publish of one instance to the other and to itself", async () => {
    const db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    const layer = () =>
      PgInvalidationBusLive.pipe(
        Layer.provide(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 3 }))
      )
    const a = await instance(layer())
    const b = await instance(layer())
    try {
      const heardByA: Array<string> = []
      const heardByB: Array<string> = []
      await a.bus(subscribe("resources", heardByA))
      await b.bus(subscribe("resources", heardByB))
      await b.bus(publish("resources", "slug-b"))
      await a.bus(publish("resources", "slug-a"))
      expect(await until(() => heardByA.length === 2 && heardByB.length === 2)).toBe(true)
      expect(heardByA.sort()).toEqual(["slug-a", "slug-b"])
      expect(heardByB.sort()).toEqual(["slug-a", "slug-b"])
    } finally {
      await a.close()
      await b.close()
      await db.drop()
    }
  })
})
