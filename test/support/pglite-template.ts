// Vitest global setup: one embedded database (PGlite) with every migration applied, made once per
// run. A suite that needs the embedded database as a store, not to prove a first start, copies it
// (`freshPgliteDir`, pglite-dir.ts) instead of paying initdb and every migration again: several
// seconds of one core each time, on a two-core machine, for each of the ~80 stores a run opens.
// What a first start does (initdb, the migrations on an empty database, the keys printed once) is
// still proven where it is the point: this setup itself runs them through the storage layer,
// `npm start` begins from an empty data directory (server-process, npm-start), and so does the
// CLI's first call (cli-store).
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import type { TestProject } from "vitest/node"
import { PgliteStorageLive } from "../../packages/adapters-storage/src/index.js"
import "./pglite-dir.js"

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), "folio-pglite-template-"))
  const dataDir = join(dir, "db")
  // Opened (initdb and the migrations), then closed cleanly, so a copy starts as a restart does.
  await Effect.runPromise(Effect.scoped(Layer.build(PgliteStorageLive({ dataDir }))))
  project.provide("pgliteTemplate", dataDir)
  return () => rmSync(dir, { recursive: true, force: true })
}
