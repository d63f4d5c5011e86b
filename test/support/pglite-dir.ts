// A fresh embedded database for a suite: a copy of the run's migrated one (pglite-template.ts), so
// opening it is a restart (no initdb, every migration already applied), not a first start.
import { cpSync, mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { inject } from "vitest"

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated embedded database's data directory (pglite-template.ts), to copy, never to open. */
    readonly pgliteTemplate: string
  }
}

/**
 * A new temp directory holding a migrated embedded database at `<dir>/<name>` (the app's data
 * directory layout is `pglite`; a bare store's is any name). The caller removes `dir`.
 */
export const freshPgliteDir = (
  prefix: string,
  name = "db"
): { readonly dir: string; readonly dataDir: string } => {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const dataDir = join(dir, name)
  copyPgliteTemplate(dataDir)
  return { dir, dataDir }
}

/** Writes a migrated embedded database at `dataDir` (which must not exist yet). */
export const copyPgliteTemplate = (dataDir: string): void =>
  cpSync(inject("pgliteTemplate"), dataDir, { recursive: true, errorOnExist: true, force: false })
