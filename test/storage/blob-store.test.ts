// BlobStore contract against memory, the filesystem and S3 (a real s3rver). Signed local URLs are
// fetched from the running app's /blobs route.
import { MemoryStorageLive } from "@folio/adapters-storage"
import { S3BlobStoreLive } from "@folio/adapters-storage/s3"
import type { BlobStore } from "@folio/domain"
import { Effect, Exit, Layer, Scope } from "effect"
import { startApp } from "../support/app.js"
import { startS3 } from "../support/s3.js"
import { registerBlobContract } from "./blob-store.contract.js"

const viaApp = (blobStore: "memory" | "fs") => async () => {
  const app = await startApp({ storage: MemoryStorageLive, config: { blobStore } })
  return { run: <A, E>(effect: Effect.Effect<A, E, BlobStore>) => app.run(effect), close: app.close }
}

registerBlobContract({ name: "memory", open: viaApp("memory") })
registerBlobContract({ name: "fs", open: viaApp("fs") })
registerBlobContract({
  name: "s3",
  open: async () => {
    const s3 = await startS3()
    const scope = Effect.runSync(Scope.make())
    const context = await Effect.runPromise(Layer.buildWithScope(S3BlobStoreLive(s3.options), scope))
    return {
      run: <A, E>(effect: Effect.Effect<A, E, BlobStore>) =>
        Effect.runPromise(Effect.provide(effect, context)),
      close: async () => {
        await Effect.runPromise(Scope.close(scope, Exit.void))
        await s3.close()
      }
    }
  }
})
