// Storage for HTTP tests: the app's repositories on memory, on PGlite in a temp dir, or on a fresh
// database of the PostgreSQL server named by TEST_DATABASE_URL, each with the way to throw it away.
import { rmSync } from "node:fs"
import { MemoryStorageLive, PgliteStorageLive, PgStorageLive } from "@folio/adapters-storage"
import type { AppConfig, StorageOverride } from "@folio/app"
import { FORMS_SCOPES } from "@folio/domain"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { startApp } from "./app.js"
import { newWorkspaceKey } from "./keys.js"
import { freshPgliteDir } from "./pglite-dir.js"

export type StorageName = "memory" | "pglite" | "postgres"

export interface OpenedStorage {
  readonly storage: StorageOverride
  readonly drop: () => Promise<void>
}

/** PostgreSQL suites run only when a server is configured. */
export const storageSkipped = (name: StorageName) => name === "postgres" && TEST_DATABASE_URL === undefined

export const openStorage = async (name: StorageName): Promise<OpenedStorage> => {
  switch (name) {
    case "memory":
      return { storage: MemoryStorageLive, drop: async () => {} }
    case "pglite": {
      const { dir, dataDir } = freshPgliteDir("folio-test-pglite-")
      return {
        storage: PgliteStorageLive({ dataDir }),
        drop: async () => rmSync(dir, { recursive: true, force: true })
      }
    }
    case "postgres": {
      const db = await createTempDatabase(TEST_DATABASE_URL ?? "", { migrated: true })
      return { storage: PgStorageLive({ url: db.url }), drop: db.drop }
    }
  }
}

/** The store a single-target suite runs on: PostgreSQL when configured, else PGlite. */
export const realStorageName: StorageName = TEST_DATABASE_URL === undefined ? "pglite" : "postgres"

/** Every storage target, PostgreSQL skipped when no server is configured. */
export const storageTargets = (names: ReadonlyArray<StorageName> = ["memory", "pglite", "postgres"]) =>
  names.map((name) => ({ name, skip: storageSkipped(name) }))

/**
 * The app on fresh storage of `name` with a generous key budget (suites send many requests), a
 * workspace and a key holding every forms scope; `close` stops the app and drops the storage.
 */
export const startAppOn = async (name: StorageName, config: Partial<AppConfig> = {}) => {
  const { storage, drop } = await openStorage(name)
  const app = await startApp({ storage, config: { rateLimitPerKey: 100_000, ...config } })
  const owner = await newWorkspaceKey(app, [...FORMS_SCOPES])
  return {
    app,
    ...owner,
    close: async () => {
      await app.close()
      await drop()
    }
  }
}
