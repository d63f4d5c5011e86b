// `npm run cli -- backup` and `restore` on real processes: a server fills a data directory (forms, a
// published version, responses with a file answer, links, files, an artifact, analytics visits),
// stops; the backup is restored into an empty directory, and every API read and public page answers
// the same there as on the original. Restore refuses a tampered archive and a non-empty directory;
// backup refuses while a server holds the data directory.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gunzipSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { blk, PNG, photoFormDefinition } from "../support/builders.js"
import { freePort } from "../support/free-port.js"
import { copyPgliteTemplate } from "../support/pglite-dir.js"
import { zipOf } from "../support/zip.js"
import { build, keyIn, runProcess, type Started, startServer } from "./process.js"

const dir = mkdtempSync(join(tmpdir(), "folio-backup-"))
const source = join(dir, "source")
const restored = join(dir, "restored")
const archive = join(dir, "folio.tar.gz")

const definition = photoFormDefinition
const PDF = new TextEncoder().encode("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n")
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36"
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0"

interface Seeded {
  formsKey: string
  sharingKey: string
  formId: string
  formSlug: string
  responseIds: Array<string>
  linkSlug: string
  fileSlug: string
  artifactSlug: string
}

let port = 0
let env: Record<string, string> = {}
const envFor = (dataDir: string) => ({ ...env, DATA_DIR: dataDir })
const seeded: Seeded = {
  formsKey: "",
  sharingKey: "",
  formId: "",
  formSlug: "",
  responseIds: [],
  linkSlug: "",
  fileSlug: "",
  artifactSlug: ""
}

const stop = async (server: Started | undefined) => {
  server?.child.kill("SIGTERM")
  await server?.exited
}

const sha = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/** What changes per request and nothing else: signed URLs' expiry and signature, a page's CSP nonce. */
const normalized = (text: string) =>
  text
    .replace(/exp=\d+/g, "exp=*")
    .replace(/sig=[A-Za-z0-9_-]+/g, "sig=*")
    .replace(/nonce="[^"]+"/g, 'nonce="*"')

/** A GET with a Host header (an artifact deployment's own origin), the socket to the app. */
const hostGet = (origin: string, url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    const target = new URL(url)
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port: new URL(origin).port,
        path: target.pathname,
        headers: { host: target.host }
      },
      (res) => {
        const chunks: Array<Buffer> = []
        res.on("data", (c: Buffer) => chunks.push(c))
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") })
        )
      }
    )
    req.on("error", reject)
    req.end()
  })

/** Fills a running server with one of everything a backup must carry. */
const seed = async (server: Started) => {
  const origin = server.origin
  const printed = server.stdout()
  seeded.formsKey = keyIn(printed) ?? ""
  seeded.sharingKey = /sharing: (folio_\S+)/.exec(printed)?.[1] ?? ""
  expect(seeded.formsKey).not.toBe("")
  expect(seeded.sharingKey).not.toBe("")
  const forms = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${origin}/forms/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${seeded.formsKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    expect(r.status, `${method} ${path}`).toBeLessThan(300)
    return ((await r.json()) as { data: Record<string, unknown> }).data
  }
  const form = await forms("POST", "/forms", { title: "Photos", definition })
  seeded.formId = String(form.id)
  seeded.formSlug = String(form.slug)
  await forms("POST", `/forms/${seeded.formId}/publish`, { expectedDraftRevision: 1 })
  for (const name of ["Ann", "Bob"]) {
    const started = (await (
      await fetch(`${origin}/f/${seeded.formSlug}/responses`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}"
      })
    ).json()) as { data: { responseId: string; token: string } }
    const { responseId, token } = started.data
    const answers: Record<string, unknown> = { [blk(1)]: name }
    if (name === "Ann") {
      const uploaded = await fetch(
        `${origin}/f/${seeded.formSlug}/responses/${responseId}/files?blockId=${blk(2)}&filename=me.png`,
        {
          method: "POST",
          headers: { "x-response-token": token, "content-type": "application/octet-stream" },
          body: PNG
        }
      )
      expect(uploaded.status).toBe(201)
      answers[blk(2)] = [((await uploaded.json()) as { data: { key: string } }).data.key]
    }
    const done = await fetch(`${origin}/f/${seeded.formSlug}/responses/${responseId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token, answers })
    })
    expect(done.status).toBe(200)
    seeded.responseIds.push(responseId)
  }

  const sharing = async (path: string, init: { body?: unknown; form?: FormData }) => {
    const r = await fetch(`${origin}/share/api/v1${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${seeded.sharingKey}`,
        ...(init.body === undefined ? {} : { "content-type": "application/json" })
      },
      body: init.form ?? JSON.stringify(init.body)
    })
    expect(r.status, path).toBe(201)
    return (await r.json()) as Record<string, unknown>
  }
  seeded.linkSlug = String(
    (
      await sharing("/resources", {
        body: { type: "link", target_url: "https://example.com/a", slug: "kept-link" }
      })
    ).slug
  )
  const upload = new FormData()
  upload.append("slug", "kept-file")
  upload.append("file", new Blob([PDF], { type: "application/pdf" }), "report.pdf")
  seeded.fileSlug = String((await sharing("/uploads", { form: upload })).slug)
  const site = new FormData()
  site.append("metadata", JSON.stringify({ slug: "kept-site", title: "Site" }))
  site.append(
    "archive",
    new Blob([
      await zipOf([
        ["index.html", new TextEncoder().encode("<!doctype html><title>Site</title><h1>Kept</h1>")],
        ["logo.bin", new Uint8Array(2048).fill(7)]
      ])
    ]),
    "site.zip"
  )
  seeded.artifactSlug = String((await sharing("/artifacts", { form: site })).slug)

  // Visits: two people on the link, one download; the batchers write them at the latest when the
  // server stops (SIGTERM), before the backup.
  for (const ua of [CHROME, FIREFOX, CHROME])
    await fetch(`${origin}/s/${seeded.linkSlug}?utm_source=news`, {
      redirect: "manual",
      headers: { "user-agent": ua }
    })
  await (
    await fetch(`${origin}/s/${seeded.fileSlug}/download`, { headers: { "user-agent": FIREFOX } })
  ).arrayBuffer()
}

/** Every read, in a fixed order, as comparable text (bodies; bytes as their SHA-256). */
const snapshot = async (origin: string): Promise<Record<string, unknown>> => {
  const out: Record<string, unknown> = {}
  const read = async (name: string, url: string, key?: string) => {
    const r = await fetch(url, {
      redirect: "manual",
      headers: { "user-agent": CHROME, ...(key === undefined ? {} : { authorization: `Bearer ${key}` }) }
    })
    const bytes = new Uint8Array(await r.arrayBuffer())
    const type = r.headers.get("content-type") ?? ""
    out[name] = {
      status: r.status,
      location: r.headers.get("location") === null ? null : normalized(r.headers.get("location") ?? ""),
      type,
      body: /json|text|csv/.test(type) ? normalized(new TextDecoder().decode(bytes)) : sha(bytes)
    }
    return { status: r.status, text: new TextDecoder().decode(bytes), location: r.headers.get("location") }
  }
  const f = (path: string) => `${origin}/forms/api/v1${path}`
  const s = (path: string) => `${origin}/share/api/v1${path}`
  const { formId, formsKey, sharingKey } = seeded
  await read("forms", f("/forms"), formsKey)
  await read("form", f(`/forms/${formId}`), formsKey)
  const versions = await read("versions", f(`/forms/${formId}/versions`), formsKey)
  const versionId = (JSON.parse(versions.text) as { data: { items: Array<{ id: string }> } }).data.items[0]
    ?.id
  expect(versionId).toBeDefined()
  await read("version", f(`/forms/${formId}/versions/${versionId}`), formsKey)
  await read("responses", f(`/forms/${formId}/responses?projection=full`), formsKey)
  for (const [i, id] of seeded.responseIds.entries()) {
    const detail = await read(`response ${i}`, f(`/forms/${formId}/responses/${id}`), formsKey)
    const files = (JSON.parse(detail.text) as { data: { files: Array<{ downloadUrl: string }> } }).data.files
    for (const [j, file] of files.entries()) {
      // The API's download answers a redirect to the signed blob URL; the bytes are compared.
      const redirect = await read(`response ${i} file ${j}`, file.downloadUrl, formsKey)
      await read(`response ${i} file ${j} bytes`, new URL(redirect.location ?? "", origin).toString())
    }
  }
  await read("summary", f(`/forms/${formId}/responses/summary`), formsKey)
  await read("csv", f(`/forms/${formId}/responses.csv`), formsKey)
  await read("resources", s("/resources"), sharingKey)
  for (const slug of [seeded.linkSlug, seeded.fileSlug, seeded.artifactSlug])
    await read(`resource ${slug}`, s(`/resources/${slug}`), sharingKey)
  await read("me", s("/me"), sharingKey)
  await read("analytics link", s(`/analytics/resources/${seeded.linkSlug}`), sharingKey)
  await read("analytics file", s(`/analytics/resources/${seeded.fileSlug}`), sharingKey)
  await read("analytics export", s("/analytics/export"), sharingKey)
  // Public pages last (they count views).
  await read("form page", `${origin}/f/${seeded.formSlug}`)
  await read("link page", `${origin}/s/${seeded.linkSlug}`)
  await read("file page", `${origin}/s/${seeded.fileSlug}`)
  await read("file bytes", `${origin}/s/${seeded.fileSlug}/download`)
  const site = await read("site link", `${origin}/s/${seeded.artifactSlug}`)
  out["site page"] = await hostGet(origin, site.location ?? "")
  return out
}

let before: Record<string, unknown> = {}
let after: Record<string, unknown> = {}
let backupRun: Awaited<ReturnType<typeof runProcess>>
let restoreRun: Awaited<ReturnType<typeof runProcess>>
let refusedWhileRunning: Awaited<ReturnType<typeof runProcess>>

beforeAll(async () => {
  await build()
  port = await freePort()
  // One port for every start: the origins in the bodies (download URLs, deployment hosts) are the same.
  env = { HOST: "127.0.0.1", PORT: String(port), PUBLIC_ORIGIN: `http://127.0.0.1:${port}` }
  // The source starts as a migrated, empty embedded database: the backup is the point, not a first start.
  copyPgliteTemplate(join(source, "pglite"))
  const first = await startServer(envFor(source))
  try {
    await seed(first)
  } finally {
    await stop(first)
  }
  backupRun = await runProcess("cli", ["backup", "--out", archive], envFor(source))
  restoreRun = await runProcess("cli", ["restore", "--in", archive], envFor(restored))
  // The original, restarted, and the restored copy answer the same reads from the same state.
  const original = await startServer(envFor(source))
  try {
    refusedWhileRunning = await runProcess(
      "cli",
      ["backup", "--out", join(dir, "online.tar.gz")],
      envFor(source)
    )
    before = await snapshot(original.origin)
  } finally {
    await stop(original)
  }
  const copy = await startServer(envFor(restored))
  try {
    after = await snapshot(copy.origin)
  } finally {
    await stop(copy)
  }
}, 900_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe("backup and restore of the embedded default", () => {
  it("backs up with a one-line summary and names the store on stderr", () => {
    expect(backupRun.stderr).toContain(`folio: using the embedded database at ${join(source, "pglite")}`)
    expect(backupRun.code, backupRun.stderr).toBe(0)
    expect(backupRun.stdout).toMatch(
      /^backed up the embedded database \(\d+ rows in \d+ tables\), 4 blobs \(\d+ bytes\) and 1 secret to \S+ \(\d+ bytes\)\n$/
    )
    expect(restoreRun.code, restoreRun.stderr).toBe(0)
    expect(restoreRun.stdout).toMatch(/^restored the embedded database \(\d+ rows in \d+ tables\), 4 blobs/)
    // Same rows as backed up: the restore counted them against the manifest.
    const rows = (text: string) => /\((\d+) rows/.exec(text)?.[1]
    expect(rows(restoreRun.stdout)).toBe(rows(backupRun.stdout))
    expect(readFileSync(join(restored, "secrets", "blob-signing.key"), "utf8")).toBe(
      readFileSync(join(source, "secrets", "blob-signing.key"), "utf8")
    )
    // No staging directory left beside the target.
    expect(readdirSync(dir).filter((n) => n.includes(".restore-"))).toEqual([])
  })

  it("answers every API read and public page the same after the restore", () => {
    expect(Object.keys(before).length).toBeGreaterThan(20)
    // The data really is there (not two empty servers agreeing).
    expect(JSON.stringify(before.responses)).toContain("Ann")
    expect((before["response 0 file 0 bytes"] as { body: string }).body).toBe(sha(PNG))
    expect((before["file bytes"] as { body: string }).body).toBe(sha(PDF))
    expect(JSON.stringify(before["analytics link"])).toMatch(/\\"views\\":3/)
    expect((before["site page"] as { body: string }).body).toContain("<h1>Kept</h1>")
    for (const name of Object.keys(before)) expect(after[name], name).toEqual(before[name])
  })

  it("refuses to back up while a server holds the data directory", () => {
    expect(refusedWhileRunning.code).toBe(1)
    expect(refusedWhileRunning.stderr).toMatch(
      /folio: cannot back up: .*in use by another Folio process \(pid \d+\); stop the server first/
    )
    expect(refusedWhileRunning.stderr.trim().split("\n")).toHaveLength(2)
    expect(existsSync(join(dir, "online.tar.gz"))).toBe(false)
  })

  it("refuses a tampered archive before writing anything", async () => {
    // One byte of a blob changed inside the tar (the manifest left as it was), then gzipped again.
    const tar = gunzipSync(readFileSync(archive))
    const at = tar.indexOf(Buffer.from("<h1>Kept</h1>"))
    expect(at).toBeGreaterThan(0)
    tar[at + 4] = "X".charCodeAt(0)
    const tampered = join(dir, "tampered.tar.gz")
    writeFileSync(tampered, gzipSync(tar))
    const target = join(dir, "from-tampered")
    const result = await runProcess("cli", ["restore", "--in", tampered], envFor(target))
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/folio: blobs\/\S+ does not match its checksum in the manifest/)
    expect(existsSync(target)).toBe(false)
    expect(readdirSync(dir).filter((n) => n.includes(".restore-"))).toEqual([])

    // A truncated archive too.
    const cut = join(dir, "cut.tar.gz")
    writeFileSync(cut, readFileSync(archive).subarray(0, 20_000))
    const truncated = await runProcess("cli", ["restore", "--in", cut], envFor(target))
    expect(truncated.code).toBe(1)
    expect(truncated.stderr).toMatch(/folio: cannot read .*damaged/)
    expect(existsSync(target)).toBe(false)
  }, 120_000)

  it("refuses a non-empty data directory, and a PostgreSQL store", async () => {
    const target = join(dir, "busy")
    mkdirSync(target)
    writeFileSync(join(target, "keep.txt"), "mine")
    const result = await runProcess("cli", ["restore", "--in", archive], envFor(target))
    expect(result.code).toBe(1)
    expect(result.stderr).toContain(`folio: DATA_DIR ${target} is not empty`)
    expect(readdirSync(target)).toEqual(["keep.txt"])

    const pg = await runProcess("cli", ["backup", "--out", join(dir, "pg.tar.gz")], {
      ...envFor(target),
      DATABASE_URL: "postgres://folio@127.0.0.1:1/none"
    })
    expect(pg.code).toBe(1)
    expect(pg.stderr).toContain("pg_dump")
    const usage = await runProcess("cli", ["backup"], envFor(target))
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("missing --out")
  }, 120_000)
})
