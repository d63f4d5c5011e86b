// The test kit's fake ports: given members answer, the others die naming the service and member,
// whether a use case calls them or yields them as an Effect.
import { TenantRepository } from "@folio/domain"
import { Cause, Effect, Exit, Option } from "effect"
import { describe, expect, it } from "vitest"
import { fakeLayer } from "../support/fake-layer.js"

const tenants = fakeLayer(TenantRepository, { get: () => Effect.succeed(Option.none()) })
const run = <A, E>(effect: Effect.Effect<A, E, TenantRepository>) =>
  Effect.runPromiseExit(Effect.provide(effect, tenants))
const defectOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : "succeeded"

describe("fakeLayer", () => {
  it("answers with the members given", async () => {
    const exit = await run(Effect.flatMap(TenantRepository, (r) => r.get("t")))
    expect(Exit.isSuccess(exit) && Option.isNone(exit.value)).toBe(true)
  })

  it("dies naming the service and the method a use case called", async () => {
    const exit = await run(Effect.flatMap(TenantRepository, (r) => r.create({} as never)))
    expect(defectOf(exit)).toContain("fake @folio/domain/TenantRepository: create is not implemented")
  })

  it("dies the same way for a member that is an Effect", async () => {
    const exit = await run(Effect.flatMap(TenantRepository, (r) => r.count))
    expect(defectOf(exit)).toContain("fake @folio/domain/TenantRepository: count is not implemented")
  })
})
