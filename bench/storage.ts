// Storage latency: primary-key read, transactional two-row write (publish: version insert + form
// update) and read throughput with 16 concurrent fibers, on embedded PGlite and on real PostgreSQL.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PgliteStorageLive, PgStorageLive, type StoragePorts } from "@folio/adapters-storage"
import { FormRepository, type FormRecord, TenantRepository } from "@folio/domain"
import { Effect, type Layer, ManagedRuntime } from "effect"
import { createTempDatabase } from "../test/storage/targets.js"
import { benchDatabaseUrl, printTable, summarize, writeResult } from "./_stats.js"

const READS = 2_000
const WRITES = 500
const CONCURRENT_FIBERS = 16
const CONCURRENT_READS = 8_000

const uuid = () => crypto.randomUUID()

const measure = async (name: string, layer: Layer.Layer<StoragePorts, unknown>) => {
  const runtime = ManagedRuntime.make(layer)
  try {
    const run = <A, E>(effect: Effect.Effect<A, E, StoragePorts>) => runtime.runPromise(effect)
    const workspaceId = uuid()
    await run(
      Effect.flatMap(TenantRepository, (r) =>
        r.create({
          id: workspaceId,
          name: "bench",
          features: {},
          createdAt: new Date(),
          disabledAt: null,
          memberKeyScopes: {}
        })
      )
    )
    const now = new Date()
    let form: FormRecord = {
      id: uuid(),
      workspaceId,
      kind: "classic",
      title: "Bench form",
      slug: `bench-${uuid()}`,
      status: "draft",
      draftRevision: 1,
      draftDefinition: {
        schemaVersion: 1,
        blocks: Array.from({ length: 30 }, (_, i) => ({
          id: `blk_${String(i).padStart(8, "0")}`,
          type: "short_text",
          label: `Q${i}`
        }))
      },
      settings: {},
      settingsSignature: null,
      currentVersionId: null,
      versionCount: 0,
      rowVersion: 1,
      createdAt: now,
      updatedAt: now
    }
    await run(Effect.flatMap(FormRepository, (r) => r.insert(form)))

    const get = Effect.flatMap(FormRepository, (r) => r.get(workspaceId, form.id))
    for (let i = 0; i < 200; i++) await run(get) // warm-up
    const reads: Array<number> = []
    for (let i = 0; i < READS; i++) {
      const t0 = performance.now()
      await run(get)
      reads.push(performance.now() - t0)
    }

    const writes: Array<number> = []
    for (let i = 0; i < WRITES; i++) {
      const version = {
        id: uuid(),
        formId: form.id,
        workspaceId,
        kind: form.kind,
        version: form.versionCount + 1,
        definition: form.draftDefinition,
        publishedAt: new Date()
      }
      const next: FormRecord = {
        ...form,
        status: "published",
        currentVersionId: version.id,
        versionCount: version.version,
        rowVersion: form.rowVersion + 1,
        updatedAt: new Date()
      }
      const t0 = performance.now()
      await run(Effect.flatMap(FormRepository, (r) => r.save(next, version)))
      writes.push(performance.now() - t0)
      form = next
    }

    const t0 = performance.now()
    await run(
      Effect.forEach(Array.from({ length: CONCURRENT_READS }), () => get, {
        concurrency: CONCURRENT_FIBERS,
        discard: true
      })
    )
    const seconds = (performance.now() - t0) / 1000

    const r = summarize(reads)
    const w = summarize(writes)
    return {
      adapter: name,
      "pk read median ms": r.median,
      "pk read p99 ms": r.p99,
      "publish tx median ms": w.median,
      "publish tx p99 ms": w.p99,
      "reads/s @16 fibers": Math.round(CONCURRENT_READS / seconds)
    }
  } finally {
    await runtime.dispose()
  }
}

export async function run(): Promise<void> {
  const rows = []
  const dir = mkdtempSync(join(tmpdir(), "folio-bench-pglite-"))
  try {
    rows.push(await measure("pglite", PgliteStorageLive({ dataDir: join(dir, "db") })))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    const db = await createTempDatabase(benchDatabaseUrl())
    try {
      rows.push(await measure("postgres", PgStorageLive({ url: db.url, maxConnections: CONCURRENT_FIBERS })))
    } finally {
      await db.drop()
    }
  } catch (error) {
    process.stdout.write(`postgres skipped: ${error instanceof Error ? error.message : String(error)}\n`)
  }
  printTable(rows)
  process.stdout.write(`written ${writeResult("storage", { at: new Date().toISOString(), rows })}\n`)
}
