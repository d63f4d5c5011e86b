// A server killed with SIGKILL between a blob write and its row's commit leaves an orphan: an
// artifact upload whose first file is stored (a staging object) while the rest of its multipart
// body has not arrived. Restarted with the files aged past BLOB_ORPHAN_GRACE_HOURS, the orphan
// sweep deletes that object and keeps every object a row names (the first site still serves) and
// an unreferenced object younger than the grace (it may be a write in flight).
import { request as httpRequest } from "node:http"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { randomUUID } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ageBlobFiles, blobFiles } from "../support/blob-files.js"
import {
  build,
  migratedDataDir,
  killServers,
  provisionWithCli,
  type Started,
  startServer
} from "./process.js"

const BOUNDARY = "----folio-orphan-test"
const part = (name: string, body: string, filename?: string) =>
  `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${name}"${filename === undefined ? "" : `; filename="${filename}"`}\r\n` +
  `content-type: ${filename === undefined ? "application/json" : "application/octet-stream"}\r\n\r\n${body}\r\n`

const waitFor = async <A>(what: string, probe: () => A | undefined, ms = 20_000): Promise<A> => {
  const until = Date.now() + ms
  for (;;) {
    const found = probe()
    if (found !== undefined) return found
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("the orphan sweep after a kill -9 between a blob write and its row", () => {
  const dataDir = migratedDataDir("folio-orphan-sweep-")
  const blobs = join(dataDir, "blobs")
  const env = { DATA_DIR: dataDir }
  const servers: Array<Started> = []
  let key = ""
  let workspaceId = ""

  beforeAll(async () => {
    await build()
    ;({ workspaceId, key } = await provisionWithCli(env, "Orphans", "sharing"))
  }, 240_000)

  afterAll(async () => {
    await killServers(servers)
    rmSync(dataDir, { recursive: true, force: true })
  })

  const siteGet = (origin: string, siteUrl: string, path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port: new URL(origin).port, path, headers: { host: new URL(siteUrl).host } },
        (res) => {
          const chunks: Array<Buffer> = []
          res.on("data", (c: Buffer) => chunks.push(c))
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() })
          )
        }
      )
      req.on("error", reject)
      req.end()
    })

  it("deletes the object the killed request wrote, and nothing a row names or younger than the grace", async () => {
    const first = await startServer(env)
    servers.push(first)
    // A site and an uploaded file: objects rows name, which must outlive every sweep.
    const site = new FormData()
    site.append("metadata", JSON.stringify({ slug: "kept-site", files: [{ part: "a", path: "index.html" }] }))
    site.append("a", new Blob(["<h1>Kept</h1>"]), "index.html")
    const made = await fetch(`${first.origin}/share/api/v1/artifacts`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: site
    })
    expect(made.status).toBe(201)
    const siteUrl = ((await made.json()) as { deployment_url: string }).deployment_url
    const upload = new FormData()
    upload.append(
      "file",
      new Blob([new Uint8Array(2048).fill(9)], { type: "application/octet-stream" }),
      "a.bin"
    )
    const uploaded = await fetch(`${first.origin}/share/api/v1/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: upload
    })
    expect(uploaded.status).toBe(201)
    const named = blobFiles(blobs)
    expect(named.size).toBeGreaterThanOrEqual(2)

    // A second site whose body stops after its first file: that file is stored (a staging object)
    // before the request can finish, so before any row can name it. Then the server is killed.
    const request = httpRequest({
      host: "127.0.0.1",
      port: new URL(first.origin).port,
      path: "/share/api/v1/artifacts",
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": `multipart/form-data; boundary=${BOUNDARY}`
      }
    })
    request.on("error", () => {})
    request.write(
      part(
        "metadata",
        JSON.stringify({
          slug: "killed-site",
          files: [
            { part: "a", path: "index.html" },
            { part: "b", path: "more.html" }
          ]
        })
      ) +
        part("a", "<h1>Never published</h1>", "index.html") +
        `--${BOUNDARY}\r\ncontent-disposition: form-data; name="b"; filename="more.html"\r\n\r\n<p>half`
    )
    // The object itself, not its temp file: a write lands as `<key>.<pid>.<time>.<random>.tmp` and is
    // renamed to its key, so a temp file seen here may already be gone once the server is killed.
    const orphan = await waitFor("the first file's staging object", () =>
      [...blobFiles(blobs).keys()].find(
        (k) => !named.has(k) && /\/staging\/[^/]+$/.test(k) && !k.endsWith(".tmp")
      )
    )
    first.child.kill("SIGKILL")
    expect((await first.exited).signal).toBe("SIGKILL")
    request.destroy()
    expect(blobFiles(blobs).has(orphan)).toBe(true)

    // Everything written so far is two days old; one unreferenced object is written just now.
    ageBlobFiles(blobs, 48)
    const young = `sharing/${workspaceId}/${randomUUID()}/${randomUUID()}`
    const youngPath = join(blobs, ...young.split("/"))
    mkdirSync(dirname(youngPath), { recursive: true })
    writeFileSync(youngPath, "in flight")
    writeFileSync(`${youngPath}.meta.json`, JSON.stringify({ contentType: "application/octet-stream" }))

    // The sweep runs at start: with a grace of one hour, the two-day-old orphan goes.
    const second = await startServer({ ...env, BLOB_ORPHAN_GRACE_HOURS: "1" })
    servers.push(second)
    await waitFor("the sweep's log line", () =>
      second.stdout().includes("orphan blobs deleted") ? true : undefined
    )
    const after = blobFiles(blobs)
    expect(after.has(orphan)).toBe(false)
    for (const k of named.keys()) expect(after.has(k)).toBe(true)
    expect(after.has(young)).toBe(true)
    expect(second.stdout()).toMatch(/"deleted":1\b/)

    // The rows' objects still serve: the first site, and the uploaded file's bytes.
    const home = await siteGet(second.origin, siteUrl, "/")
    expect(home.status).toBe(200)
    expect(home.body).toBe("<h1>Kept</h1>")
    second.child.kill("SIGTERM")
    await second.exited
  }, 120_000)
})
