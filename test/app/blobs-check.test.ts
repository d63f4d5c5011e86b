// `npm run cli -- blobs check [--delete-orphans]` on the embedded default (PGlite, filesystem blobs):
// a key a row names with no object is reported missing (exit code 1), an object no row names older
// than BLOB_ORPHAN_GRACE_HOURS orphaned, a younger one only counted; --delete-orphans deletes the
// old orphans and nothing else.
import { copyFileSync, mkdirSync, renameSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { randomUUID } from "node:crypto"
import { dirname, join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { blobFiles } from "../support/blob-files.js"
import { build, migratedDataDir, provisionWithCli, runProcess, startServer } from "./process.js"

describe("npm run cli -- blobs check", () => {
  const dataDir = migratedDataDir("folio-blobs-check-")
  const blobs = join(dataDir, "blobs")
  const env = { DATA_DIR: dataDir }
  let workspaceId = ""
  let named: ReadonlyArray<string> = []

  const writeObject = (key: string, hoursAgo: number) => {
    const path = join(blobs, ...key.split("/"))
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, "orphan bytes")
    writeFileSync(`${path}.meta.json`, JSON.stringify({ contentType: "application/octet-stream" }))
    const when = new Date(Date.now() - hoursAgo * 3_600_000)
    utimesSync(path, when, when)
  }

  beforeAll(async () => {
    await build()
    const provisioned = await provisionWithCli(env, "Check", "sharing")
    workspaceId = provisioned.workspaceId
    const key = provisioned.key
    // Two uploaded files: objects rows name.
    const server = await startServer(env)
    try {
      for (const name of ["a.bin", "b.bin"]) {
        const body = new FormData()
        body.append(
          "file",
          new Blob([new Uint8Array(100).fill(9)], { type: "application/octet-stream" }),
          name
        )
        const uploaded = await fetch(`${server.origin}/share/api/v1/uploads`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body
        })
        expect(uploaded.status).toBe(201)
      }
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
    named = [...blobFiles(blobs).keys()]
  }, 240_000)

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("says all is well on a consistent store", async () => {
    expect(named.length).toBe(2)
    const result = await runProcess("cli", ["blobs", "check"], env)
    expect(result.code).toBe(0)
    expect(result.stdout).not.toMatch(/^(missing|orphan)\t/m)
    expect(result.stdout).toContain("0 missing, 0 orphaned (older than 24 hours)")
  }, 60_000)

  it("reports missing and old orphaned keys, and --delete-orphans deletes only the old orphans", async () => {
    const [gone = "", kept = ""] = named
    const aside = join(dataDir, "aside")
    renameSync(join(blobs, ...gone.split("/")), aside)
    const oldOrphan = `sharing/${workspaceId}/${randomUUID()}/${randomUUID()}`
    const youngOrphan = `sharing/${workspaceId}/${randomUUID()}/${randomUUID()}`
    writeObject(oldOrphan, 30)
    writeObject(youngOrphan, 1)

    const checked = await runProcess("cli", ["blobs", "check"], env)
    expect(checked.code).toBe(1)
    expect(checked.stdout).toContain(`missing\t${gone}\n`)
    expect(checked.stdout).toMatch(new RegExp(`^orphan\\t${oldOrphan}\\t12\\t\\S+Z$`, "m"))
    expect(checked.stdout).not.toContain(youngOrphan)
    expect(checked.stdout).not.toContain(kept)
    expect(checked.stdout).toContain(
      "1 missing, 1 orphaned (older than 24 hours), 1 unreferenced but younger"
    )
    // Checking deletes nothing.
    expect(blobFiles(blobs).has(oldOrphan)).toBe(true)

    // A shorter grace makes the younger one an orphan too; the setting acts.
    const shortGrace = await runProcess("cli", ["blobs", "check"], { ...env, BLOB_ORPHAN_GRACE_HOURS: "1" })
    expect(shortGrace.stdout).toContain(`orphan\t${youngOrphan}\t`)

    const deleted = await runProcess("cli", ["blobs", "check", "--delete-orphans"], env)
    expect(deleted.code).toBe(1)
    expect(deleted.stdout).toMatch(new RegExp(`^orphan\\t${oldOrphan}\\t.*\\tdeleted$`, "m"))
    expect(deleted.stdout).toContain("1 orphaned (older than 24 hours), 1 deleted")
    const left = blobFiles(blobs)
    expect(left.has(oldOrphan)).toBe(false)
    expect(left.has(youngOrphan)).toBe(true)
    expect(left.has(kept)).toBe(true)

    // The missing object put back: nothing missing, exit code 0.
    copyFileSync(aside, join(blobs, ...gone.split("/")))
    const again = await runProcess("cli", ["blobs", "check"], env)
    expect(again.code).toBe(0)
    expect(again.stdout).toContain("0 missing, 0 orphaned")
  }, 120_000)
})
