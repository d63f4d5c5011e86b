// Vitest global setup: with TEST_DATABASE_URL, one database on that server with every migration
// applied, made once per run, that the suites' fresh databases are created from (`create database
// ... template`, createTempDatabase's `migrated`): ~0.2 s a database instead of ~0.5 s of creating
// it and running every migration. Suites that prove what happens on an empty database (the
// migrations themselves, the CLI's first call, two instances starting at once) create theirs
// empty. Nothing connects to the template after this setup, as PostgreSQL requires of one.
import { Effect, Layer } from "effect"
import type { TestProject } from "vitest/node"
import { PgStorageLive } from "../../packages/adapters-storage/src/index.js"
import { createTempDatabase } from "../storage/targets.js"

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL
  if (url === undefined) {
    project.provide("pgTemplate", "")
    return async () => {}
  }
  const template = await createTempDatabase(url)
  // Opened (every migration) and closed, so no session is left on it.
  await Effect.runPromise(Effect.scoped(Layer.build(PgStorageLive({ url: template.url }))))
  project.provide("pgTemplate", template.name)
  return template.drop
}
