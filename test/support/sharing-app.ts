// The app for the sharing file suites: its database and blob store chosen per target (PGlite with
// the filesystem store, and PostgreSQL when a server is configured, else PGlite, with S3 on s3rver),
// a generous request budget, and one close for all of it.
import { Option, Redacted } from "effect"
import type { AppConfig } from "@folio/app"
import { type RunningApp, startApp } from "./app.js"
import { startS3 } from "./s3.js"
import { openStorage, realStorageName, type StorageName } from "./storage.js"

export interface SharingTarget {
  readonly db: StorageName
  readonly blob: "fs" | "s3"
}

/** Every database and blob store pairing the file suites run on. */
export const SHARING_FILE_TARGETS: ReadonlyArray<SharingTarget> = [
  { db: "pglite", blob: "fs" },
  { db: realStorageName, blob: "s3" }
]

export const startSharingApp = async (
  target: SharingTarget,
  config: Partial<AppConfig> = {}
): Promise<{ readonly app: RunningApp; readonly close: () => Promise<void> }> => {
  const s3 = target.blob === "s3" ? await startS3() : undefined
  const storage = await openStorage(target.db)
  const app = await startApp({
    storage: storage.storage,
    config: {
      sharingRequestsPerKey: 100_000,
      blobStore: target.blob,
      s3:
        s3 === undefined
          ? Option.none()
          : Option.some({ ...s3.options, secretAccessKey: Redacted.make(s3.options.secretAccessKey) }),
      ...config
    }
  })
  return {
    app,
    close: async () => {
      await app.close()
      await storage.drop()
      await s3?.close()
    }
  }
}
