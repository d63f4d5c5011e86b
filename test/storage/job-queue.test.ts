// The JobQueue contract against memory, PGlite and PostgreSQL (skipped without TEST_DATABASE_URL).
import { type JobQueue, TenantRepository } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe } from "vitest"
import { workspace } from "./fixtures.js"
import { registerJobQueueContracts } from "./job-queue.contract.js"
import { type StorageTarget, storageTargets } from "./targets.js"

type Opened = Awaited<ReturnType<StorageTarget["open"]>>

for (const target of storageTargets) {
  describe.skipIf(target.skip)(`job queue [${target.name}]`, () => {
    let opened: Opened | undefined
    const run = <A, E>(effect: Effect.Effect<A, E, JobQueue | TenantRepository>): Promise<A> => {
      if (opened === undefined) throw new Error("storage not opened")
      return opened.runtime.runPromise(effect)
    }
    beforeAll(async () => {
      opened = await target.open()
    }, 120_000)
    afterAll(async () => {
      await opened?.close()
    })

    registerJobQueueContracts({
      target: target.name,
      run,
      newWorkspace: async () => {
        const ws = workspace()
        await run(Effect.flatMap(TenantRepository, (r) => r.create(ws)))
        return ws
      }
    })
  })
}
