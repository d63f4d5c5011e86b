// Storage for a contract suite: `withStorage(target)` opens the target's adapter before the
// describe block it is called in and closes it after, and hands the suite a way to run effects on
// it and to make tenants.
import { type TenantRecord, TenantRepository } from "@folio/domain"
import { Effect, type ManagedRuntime, type Result } from "effect"
import { afterAll, beforeAll } from "vitest"
import { workspace } from "../storage/fixtures.js"
import type { StorageTarget } from "../storage/targets.js"

type Opened = Awaited<ReturnType<StorageTarget["open"]>>

/** Every service an opened target provides: the storage ports and IdGen. */
export type StorageServices =
  Opened["runtime"] extends ManagedRuntime.ManagedRuntime<infer R, unknown> ? R : never

export interface StorageHarness {
  /** The target's name, for the suites' titles. */
  readonly target: StorageTarget["name"]
  readonly run: <A, E>(effect: Effect.Effect<A, E, StorageServices>) => Promise<A>
  /** Runs `effect`, answering its success or its failure. */
  readonly attempt: <A, E>(effect: Effect.Effect<A, E, StorageServices>) => Promise<Result.Result<A, E>>
  /** A new tenant, stored. */
  readonly newWorkspace: () => Promise<TenantRecord>
}

/** Opens `target` around the enclosing describe block (beforeAll/afterAll); call it inside one. */
export const withStorage = (target: StorageTarget): StorageHarness => {
  let opened: Opened | undefined
  beforeAll(async () => {
    opened = await target.open()
  }, 120_000)
  afterAll(async () => {
    await opened?.close()
  })
  const run = <A, E>(effect: Effect.Effect<A, E, StorageServices>): Promise<A> => {
    if (opened === undefined) throw new Error(`storage [${target.name}] not opened: run it inside a test`)
    return opened.runtime.runPromise(effect)
  }
  return {
    target: target.name,
    run,
    attempt: (effect) => run(Effect.result(effect)),
    newWorkspace: async () => {
      const ws = workspace()
      await run(Effect.flatMap(TenantRepository, (r) => r.create(ws)))
      return ws
    }
  }
}
