// Vitest global setup: with TEST_DATABASE_URL, one database on that server with every migration
// applied, made once per run, that the suites' fresh databases are created from (`create database
// ... template`, createTempDatabase's `migrated`): ~0.2 s a database instead of ~0.5 s of creating
// it and running every migration. Suites that prove what happens on an empty database (the
// migrations themselves, the CLI's first call, two instances starting at once) create theirs
// empty. Nothing connects to the template after this setup, as PostgreSQL requires of one.
import { Effect, Layer } from "effect"
import pg from "pg"
import type { TestProject } from "vitest/node"
import { PgStorageLive } from "../../packages/adapters-storage/src/index.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template database's name ("" without TEST_DATABASE_URL), to copy, never to open. */
    readonly pgTemplate: string
  }
}

const admin = async (url: string, sql: string): Promise<void> => {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const url = process.env.TEST_DATABASE_URL
  if (url === undefined) {
    project.provide("pgTemplate", "")
    return async () => {}
  }
  const name = `folio_template_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await admin(url, `create database ${name}`)
  const target = new URL(url)
  target.pathname = `/${name}`
  // Opened (every migration) and closed, so no session is left on it.
  await Effect.runPromise(Effect.scoped(Layer.build(PgStorageLive({ url: target.toString() }))))
  project.provide("pgTemplate", name)
  return () => admin(url, `drop database if exists ${name} with (force)`)
}
