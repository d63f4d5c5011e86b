// The storage adapters every contract suite runs against: memory, PGlite in a temp dir (a copy of
// the run's migrated one, pglite-dir.ts), and the real PostgreSQL named by TEST_DATABASE_URL (a
// fresh database per test file, dropped afterwards).
import { rmSync } from "node:fs"
import { IdGenLive, MemoryStorageLive, PgliteStorageLive, PgStorageLive } from "@folio/adapters-storage"
import { Layer, ManagedRuntime } from "effect"
import pg from "pg"
import { inject } from "vitest"
import { freshPgliteDir } from "../support/pglite-dir.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's migrated template database (pg-template.ts; "" without a server), never opened. */
    readonly pgTemplate: string
  }
}

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL

type StorageLayer = ReturnType<typeof storageLayerType>
type StoragePortsOf = Layer.Success<StorageLayer>
// What every target offers is what the SQL layers provide (memory may already offer more).
const storageLayerType = () => Layer.merge(PgStorageLive({ url: "" }), IdGenLive)

export interface StorageTarget {
  readonly name: "memory" | "pglite" | "postgres"
  readonly skip: boolean
  /** Builds the runtime (in beforeAll) and returns it with its disposer. */
  readonly open: () => Promise<{
    runtime: ManagedRuntime.ManagedRuntime<StoragePortsOf, unknown>
    close: () => Promise<void>
  }>
}

/**
 * Creates a throwaway database on the server of `url`; returns its URL and a dropper. `migrated`
 * (in a test run): a copy of the run's migrated template (pg-template.ts) rather than an empty one,
 * for a suite that needs the schema, not to prove the migrations.
 */
export const createTempDatabase = async (
  url: string,
  options: { readonly migrated?: boolean } = {}
): Promise<{ name: string; url: string; drop: () => Promise<void> }> => {
  const name = `folio_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const template = options.migrated === true ? inject("pgTemplate") : ""
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(
    template === "" ? `create database ${name}` : `create database ${name} template ${template}`
  )
  await admin.end()
  const target = new URL(url)
  target.pathname = `/${name}`
  return {
    name,
    url: target.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url })
      await c.connect()
      await c.query(`drop database if exists ${name} with (force)`)
      await c.end()
    }
  }
}

const runtimeOf = (layer: Layer.Layer<StoragePortsOf, unknown>) => ManagedRuntime.make(layer)

export const storageTargets: ReadonlyArray<StorageTarget> = [
  {
    name: "memory",
    skip: false,
    open: async () => {
      const runtime = runtimeOf(Layer.merge(MemoryStorageLive, IdGenLive))
      return { runtime, close: () => runtime.dispose() }
    }
  },
  {
    name: "pglite",
    skip: false,
    open: async () => {
      const { dir, dataDir } = freshPgliteDir("folio-pglite-")
      const runtime = runtimeOf(Layer.merge(PgliteStorageLive({ dataDir }), IdGenLive))
      return {
        runtime,
        close: async () => {
          await runtime.dispose()
          rmSync(dir, { recursive: true, force: true })
        }
      }
    }
  },
  {
    name: "postgres",
    skip: TEST_DATABASE_URL === undefined,
    open: async () => {
      const db = await createTempDatabase(TEST_DATABASE_URL ?? "", { migrated: true })
      const runtime = runtimeOf(Layer.merge(PgStorageLive({ url: db.url }), IdGenLive))
      return {
        runtime,
        close: async () => {
          await runtime.dispose()
          await db.drop()
        }
      }
    }
  }
]
