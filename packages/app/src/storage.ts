// Picks the storage and blob adapters from configuration: PostgreSQL when DATABASE_URL is set,
// otherwise embedded PGlite under DATA_DIR; blobs on the filesystem, S3 or in memory.
import { join, resolve } from "node:path"
import {
  BlobStoreHealth,
  FsBlobStoreLive,
  MemoryBlobStoreLive,
  PgliteStorageLive,
  PgStorageLive,
  type StoragePorts
} from "@folio/adapters-storage"
import { type BlobStore, StorageError } from "@folio/domain"
import { Cause, Effect, Layer, Option, Redacted } from "effect"
import type { AppConfig } from "./config.js"
import { type DataDirError, lockDataDir, persistentSecret } from "./data-dir.js"

/** A layer's typed failure, rephrased (Effect 4's Layer has no mapError). */
const mapLayerError =
  <E, E2>(f: (error: E) => E2) =>
  <A, R>(layer: Layer.Layer<A, E, R>): Layer.Layer<A, E2, R> =>
    Layer.catchCause(layer, (cause) =>
      Layer.effectContext<A, E2, never>(Effect.failCause(Cause.map(cause, f)))
    )

/**
 * Where the data lives, for people: "PostgreSQL at host:port/db" (never the user or password) or
 * "the embedded database at /abs/path". The CLI prints it and start-up failures name it.
 */
export const describeStore = (config: AppConfig): string =>
  Option.match(config.databaseUrl, {
    onNone: () => `the embedded database at ${resolve(config.dataDir, "pglite")}`,
    onSome: (url) => {
      try {
        const parsed = new URL(Redacted.value(url))
        // libpq defaults: a socket directory may come as ?host=, the database defaults to the user.
        const host = parsed.hostname || parsed.searchParams.get("host") || "localhost"
        const database = decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username)
        return `PostgreSQL at ${host}:${parsed.port || "5432"}/${database}`
      } catch {
        return "PostgreSQL"
      }
    }
  })

/** Repositories, counters and the storage health check. */
export const storageLayer = (config: AppConfig): Layer.Layer<StoragePorts, StorageError | DataDirError> =>
  Option.match(config.databaseUrl, {
    onNone: () =>
      Layer.unwrap(
        Effect.map(lockDataDir(config.dataDir), () =>
          PgliteStorageLive({ dataDir: join(config.dataDir, "pglite") })
        )
      ),
    onSome: (url): Layer.Layer<StoragePorts, StorageError | DataDirError> =>
      PgStorageLive({ url: Redacted.value(url) })
  }).pipe(
    // Say which store failed to open and which variable points at it; the cause (refused, missing
    // database, bad password) is kept for the start-up line.
    mapLayerError((error) =>
      error instanceof StorageError
        ? new StorageError({
            message: `cannot open ${describeStore(config)} (${Option.isSome(config.databaseUrl) ? "DATABASE_URL" : "DATA_DIR"})`,
            cause: error
          })
        : error
    )
  )

/** The secret that signs local download URLs: configured, or generated once under DATA_DIR. */
export const blobSigningSecret = (config: AppConfig) =>
  Option.match(config.blobSigningSecret, {
    onSome: (secret) => Effect.succeed(Redacted.value(secret)),
    onNone: () => persistentSecret(config.dataDir, "blob-signing.key")
  })

/** Local stores have nothing remote to lose: their readiness is the process's own. */
const alwaysHealthy = Layer.succeed(BlobStoreHealth, BlobStoreHealth.of({ check: Effect.void }))

/** The blob store and its readiness check. */
export const blobStoreLayer = (
  config: AppConfig,
  signingSecret: string
): Layer.Layer<BlobStore | BlobStoreHealth, StorageError> => {
  switch (config.blobStore) {
    case "memory":
      return Layer.merge(
        MemoryBlobStoreLive({ publicOrigin: config.publicOrigin, signingSecret }),
        alwaysHealthy
      )
    case "s3": {
      const s3 = Option.getOrThrowWith(
        config.s3,
        () => new Error("S3 settings are required when BLOB_STORE=s3")
      )
      // Loaded only here: the S3 SDK is a fifth of a second of every start that does not use it.
      return Layer.unwrap(
        Effect.map(
          Effect.promise(() => import("@folio/adapters-storage/s3")),
          ({ S3BlobStoreLive }) =>
            S3BlobStoreLive({
              endpoint: s3.endpoint,
              region: s3.region,
              bucket: s3.bucket,
              accessKeyId: s3.accessKeyId,
              secretAccessKey: Redacted.value(s3.secretAccessKey),
              forcePathStyle: s3.forcePathStyle
            })
        )
      ).pipe(
        // The start-up bucket check names the variables to fix.
        mapLayerError(
          (error) =>
            new StorageError({ message: `${error.message} (S3_ENDPOINT, S3_BUCKET)`, cause: error.cause })
        )
      )
    }
    case "fs":
      return Layer.merge(
        FsBlobStoreLive({
          root: join(config.dataDir, "blobs"),
          publicOrigin: config.publicOrigin,
          signingSecret
        }),
        alwaysHealthy
      )
  }
}
