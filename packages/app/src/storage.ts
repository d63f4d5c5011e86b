// Picks the storage and blob adapters from configuration: PostgreSQL when DATABASE_URL is set,
// otherwise embedded PGlite under DATA_DIR; blobs on the filesystem, S3 or in memory.
import { join } from "node:path"
import {
  FsBlobStoreLive,
  MemoryBlobStoreLive,
  PgliteStorageLive,
  PgStorageLive,
  S3BlobStoreLive
} from "@folio/adapters-storage"
import { Effect, Layer, Option, Redacted } from "effect"
import type { AppConfig } from "./config.js"
import { lockDataDir, persistentSecret } from "./data-dir.js"

/** Repositories, counters and the storage health check. */
export const storageLayer = (config: AppConfig) =>
  Option.match(config.databaseUrl, {
    onNone: () =>
      Layer.unwrapScoped(
        Effect.map(lockDataDir(config.dataDir), () =>
          PgliteStorageLive({ dataDir: join(config.dataDir, "pglite") })
        )
      ),
    onSome: (url) => PgStorageLive({ url: Redacted.value(url) })
  })

/** The secret that signs local download URLs: configured, or generated once under DATA_DIR. */
export const blobSigningSecret = (config: AppConfig) =>
  Option.match(config.blobSigningSecret, {
    onSome: (secret) => Effect.succeed(Redacted.value(secret)),
    onNone: () => persistentSecret(config.dataDir, "blob-signing.key")
  })

export const blobStoreLayer = (config: AppConfig, signingSecret: string) => {
  switch (config.blobStore) {
    case "memory":
      return MemoryBlobStoreLive({ publicOrigin: config.publicOrigin, signingSecret })
    case "s3": {
      const s3 = Option.getOrThrowWith(
        config.s3,
        () => new Error("S3 settings are required when BLOB_STORE=s3")
      )
      return S3BlobStoreLive({
        endpoint: s3.endpoint,
        region: s3.region,
        bucket: s3.bucket,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: Redacted.value(s3.secretAccessKey),
        forcePathStyle: s3.forcePathStyle
      })
    }
    case "fs":
      return FsBlobStoreLive({
        root: join(config.dataDir, "blobs"),
        publicOrigin: config.publicOrigin,
        signingSecret
      })
  }
}
