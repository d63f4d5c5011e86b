// HTML artifacts: deploy a 500-file site (one ZIP) to the real server on PostgreSQL with the
// filesystem blob store, then a patch deploy of one file of it, then a full redeploy of the same
// content. For each: the time the request took and the bytes the blob store gained on disk (each
// object also has a small type file beside it). Files are content-addressed, so the patch must add
// only its one file and the identical redeploy nothing (its files pass through staging, which is
// renamed into place or deleted: no other object is copied).
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createTempDatabase } from "../test/storage/targets.js"
import { cli, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, writeResult } from "./_stats.js"
import { zipOf } from "../test/support/zip.js"

const FILES = 500
const FILE_BYTES = 8 * 1024

/** Bytes of every file under `dir`. */
const bytesUnder = (dir: string): number => {
  let total = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    total += entry.isDirectory() ? bytesUnder(path) : statSync(path).size
  }
  return total
}

const post = async (
  url: string,
  key: string,
  metadata: unknown,
  parts: ReadonlyArray<[string, Uint8Array<ArrayBuffer>]>
) => {
  const body = new FormData()
  body.append("metadata", JSON.stringify(metadata))
  for (const [name, bytes] of parts) body.append(name, new Blob([bytes]), name)
  const started = performance.now()
  const response = await fetch(url, { method: "POST", headers: { authorization: `Bearer ${key}` }, body })
  const json = (await response.json()) as { slug?: string; deployment_id?: string; error_code?: string }
  if (response.status !== 201) throw new Error(`deploy answered ${response.status} ${json.error_code ?? ""}`)
  return { ms: performance.now() - started, json }
}

export const run = async () => {
  const db = await createTempDatabase(benchDatabaseUrl())
  const dataDir = mkdtempSync(join(tmpdir(), "folio-bench-artifacts-"))
  const blobs = join(dataDir, "blobs")
  const site: Array<[string, Uint8Array]> = [["index.html", new TextEncoder().encode("<h1>Bench site</h1>")]]
  for (let i = 1; i < FILES; i++)
    site.push([`assets/${String(i).padStart(3, "0")}.bin`, randomBytes(FILE_BYTES)])
  const siteBytes = site.reduce((n, [, b]) => n + b.byteLength, 0)
  try {
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      BLOB_STORE: "fs",
      SHARING_REQUESTS_PER_KEY: "1000000"
    }
    const ws = /workspace ([0-9a-f-]{36})/.exec(await cli(env, ["workspace", "create", "bench"]))?.[1] ?? ""
    const key =
      /folio_[A-Za-z0-9]{12}_[A-Za-z0-9]{43}/.exec(
        await cli(env, ["key", "create", "--workspace", ws, "--scopes", "all", "--service", "sharing"])
      )?.[0] ?? ""
    const server = await startServer(env)
    const rows: Array<Record<string, string | number>> = []
    try {
      const api = `${server.origin}/share/api/v1`
      const archive = await zipOf(site)
      const written = () => {
        try {
          return bytesUnder(blobs)
        } catch {
          return 0
        }
      }
      let before = written()
      const created = await post(`${api}/artifacts`, key, {}, [["archive", archive]])
      rows.push({
        deploy: `${FILES}-file site from one ZIP (${(siteBytes / 1024 / 1024).toFixed(1)} MiB)`,
        ms: created.ms,
        "bytes the store gained": written() - before
      })
      const slug = created.json.slug ?? ""
      const changed = randomBytes(FILE_BYTES)
      before = written()
      const patched = await post(
        `${api}/resources/${slug}/artifact/deployments`,
        key,
        {
          mode: "patch",
          base_deployment_id: created.json.deployment_id,
          files: [{ part: "f", path: "assets/007.bin" }]
        },
        [["f", new Uint8Array(changed)]]
      )
      rows.push({
        deploy: `patch of one ${FILE_BYTES / 1024} KiB file`,
        ms: patched.ms,
        "bytes the store gained": written() - before
      })
      before = written()
      const again = await post(`${api}/resources/${slug}/artifact/deployments`, key, {}, [
        ["archive", archive]
      ])
      rows.push({
        deploy: "full redeploy of the original content",
        ms: again.ms,
        "bytes the store gained": written() - before
      })
    } finally {
      await stop(server.child)
    }
    printTable(rows)
    process.stdout.write(
      `written ${writeResult("artifacts", { at: new Date().toISOString(), files: FILES, siteBytes, rows })}\n`
    )
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
    await db.drop()
  }
}
