// The AnalyticsStore contract against memory, PGlite and PostgreSQL (skipped without TEST_DATABASE_URL).
import { type AnalyticsStore, type ResourceRepository, TenantRepository } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe } from "vitest"
import { registerAnalyticsContracts } from "./analytics.contract.js"
import { workspace } from "./fixtures.js"
import { type StorageTarget, storageTargets } from "./targets.js"

type Opened = Awaited<ReturnType<StorageTarget["open"]>>

for (const target of storageTargets) {
  describe.skipIf(target.skip)(`analytics store [${target.name}]`, () => {
    let opened: Opened | undefined
    const run = <A, E>(
      effect: Effect.Effect<A, E, AnalyticsStore | ResourceRepository | TenantRepository>
    ): Promise<A> => {
      if (opened === undefined) throw new Error("storage not opened")
      return opened.runtime.runPromise(effect)
    }
    beforeAll(async () => {
      opened = await target.open()
    }, 120_000)
    afterAll(async () => {
      await opened?.close()
    })

    registerAnalyticsContracts({
      run,
      newWorkspace: async () => {
        const ws = workspace()
        await run(Effect.flatMap(TenantRepository, (r) => r.create(ws)))
        return ws
      }
    })
  })
}
