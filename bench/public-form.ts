// The public form page (issue 13) on PostgreSQL, server in its own process: a published 20-question
// form with a representative mix of blocks (texts, choices of 5, a countries dropdown, rating, date,
// number, email, checkboxes, a 3-row matrix, a statement, page breaks, an image). Measures
// (a) time to first byte of GET /f/{slug}, warm, sequential and at 8 concurrent connections, and
// (b) what the page costs on the wire: the HTML fetched as a browser does (accept-encoding: br, gzip),
// then every same-origin stylesheet and script it links, summed as compressed bytes. node:http is
// used throughout, so the bytes counted are the ones sent, not the decoded ones.
// Targets: first byte < 20 ms p50 warm; HTML + CSS + JS < 60 KB compressed.
import { Agent, type IncomingHttpHeaders, request } from "node:http"
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib"
import { createTempDatabase } from "../test/storage/targets.js"
import { provision, startServer, stop } from "./_server.js"
import { benchDatabaseUrl, printTable, quantile, writeResult } from "./_stats.js"

const WARMUP = Number(process.env.BENCH_PAGE_WARMUP ?? 300)
const REQUESTS = Number(process.env.BENCH_PAGE_REQUESTS ?? 1_000)
const CONCURRENCY = 8
const TTFB_TARGET_MS = 20
const SIZE_TARGET_BYTES = 60 * 1024

/** What a browser sends for a page and its subresources. */
const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
  "accept-encoding": "br, gzip",
  "accept-language": "en-US,en;q=0.9",
  "user-agent": "folio-bench/1 (public-form)"
}

const blk = (n: number) => `blk_${String(n).padStart(8, "0")}`
const five = (prefix: string) =>
  ["Strongly disagree", "Disagree", "Neutral", "Agree", "Strongly agree"].map((label, i) => ({
    id: `${prefix}${i + 1}`,
    label
  }))

/** 20 questions, a statement, two page breaks and an image: what a typical survey page holds. */
const definition = (imageKey: string) => {
  let n = 0
  const id = () => blk(++n)
  const matrix = (row: string) => ({
    id: id(),
    type: "multiple_choice",
    label: row,
    required: true,
    options: { choices: five("m"), matrixGroupId: "mtx_service", rowLabel: row }
  })
  return {
    schemaVersion: 1,
    blocks: [
      { id: id(), type: "image", imageKey, imageAlt: "Our team at the summer meetup", width: "full" },
      { id: id(), type: "short_text", label: "What is your name?", required: true },
      { id: id(), type: "email", label: "Your email address", required: true },
      {
        id: id(),
        type: "multiple_choice",
        label: "How satisfied are you with the product?",
        required: true,
        options: { choices: five("s") }
      },
      {
        id: id(),
        type: "checkboxes",
        label: "Which features do you use?",
        options: {
          choices: [
            { id: "f1", label: "Forms" },
            { id: "f2", label: "Reports" },
            { id: "f3", label: "Exports" },
            { id: "f4", label: "Integrations" },
            { id: "f5", label: "Team workspaces" }
          ],
          maxSelected: 3
        }
      },
      {
        id: id(),
        type: "dropdown",
        label: "Where do you live?",
        required: true,
        options: { choices: [], dataset: "countries" }
      },
      {
        id: id(),
        type: "rating",
        label: "How likely are you to recommend us?",
        options: { scale: 11, zeroBased: true, lowLabel: "Not likely", highLabel: "Very likely" }
      },
      { id: id(), type: "date", label: "When did you start using the product?" },
      {
        id: id(),
        type: "number",
        label: "How many people on your team use it?",
        options: { min: 1, max: 10000, integer: true }
      },
      { id: id(), type: "page_break" },
      {
        id: id(),
        type: "statement",
        label: "About our service",
        content: [
          { text: "Tell us how each part of our service worked for you. " },
          { text: "All answers are anonymous.", bold: true }
        ]
      },
      matrix("Onboarding"),
      matrix("Support"),
      matrix("Documentation"),
      { id: id(), type: "long_text", label: "What should we improve first?", options: { maxLength: 2000 } },
      {
        id: id(),
        type: "ranking",
        label: "Rank these by importance",
        options: { choices: five("r").map((c, i) => ({ ...c, label: `Priority ${i + 1}` })) }
      },
      { id: id(), type: "time", label: "When is a good time to call you?" },
      { id: id(), type: "page_break" },
      {
        id: id(),
        type: "multiple_choice",
        label: "Did you contact support this year?",
        options: {
          choices: [
            { id: "y", label: "Yes" },
            { id: "n", label: "No" }
          ]
        }
      },
      {
        id: id(),
        type: "rating",
        label: "Rate the documentation",
        options: { scale: 5, shape: "star" }
      },
      {
        id: id(),
        type: "short_text",
        label: "Your phone number",
        options: { inputMode: "tel", autoComplete: "tel" }
      },
      {
        id: id(),
        type: "file_upload",
        label: "Attach a screenshot (optional)",
        options: { maxFiles: 1, maxSizeMb: 5, acceptedMimeTypes: ["image/*"] }
      },
      { id: id(), type: "long_text", label: "Anything else you would like to tell us?" }
    ]
  }
}

/** A small valid PNG (1x1, transparent) for the image block and the logo. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
  "base64"
)

interface Answer {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  /** Milliseconds from sending the request to its first response byte (headers parsed). */
  readonly ttfbMs: number
  /** The body as sent (compressed if the server compressed it). */
  readonly body: Buffer
}

/** One GET over node:http: raw bytes, no decompression, timed to the first byte. */
const get = (url: string, agent: Agent, headers: Record<string, string> = BROWSER_HEADERS) =>
  new Promise<Answer>((resolve, reject) => {
    const t0 = performance.now()
    const req = request(url, { method: "GET", agent, headers }, (res) => {
      const ttfbMs = performance.now() - t0
      const chunks: Array<Buffer> = []
      res.on("data", (chunk: Buffer) => chunks.push(chunk))
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, ttfbMs, body: Buffer.concat(chunks) })
      )
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end()
  })

const decoded = (answer: Answer): Buffer => {
  switch (answer.headers["content-encoding"]) {
    case "br":
      return brotliDecompressSync(answer.body)
    case "gzip":
      return gunzipSync(answer.body)
    case "deflate":
      return inflateSync(answer.body)
    default:
      return answer.body
  }
}

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)
  return match === null ? undefined : (match[1] ?? match[2] ?? match[3])
}

/** The stylesheets and scripts a page links, resolved against it, same origin only. */
export const linkedResources = (html: string, pageUrl: string) => {
  const origin = new URL(pageUrl).origin
  const found: Array<{ kind: "css" | "js"; url: string }> = []
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attribute(tag, "rel")?.toLowerCase().split(/\s+/) ?? []
    const href = attribute(tag, "href")
    if (rel.includes("stylesheet") && href !== undefined) found.push({ kind: "css", url: href })
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attribute(tag, "src")
    if (src !== undefined) found.push({ kind: "js", url: src })
  }
  return found
    .map((r) => ({ ...r, url: new URL(r.url.replaceAll("&amp;", "&"), pageUrl).toString() }))
    .filter((r) => new URL(r.url).origin === origin)
    .filter((r, i, all) => all.findIndex((o) => o.url === r.url) === i)
}

const ms = (v: number) => Math.round(v * 100) / 100

const ttfbStats = (samples: ReadonlyArray<number>) => {
  const sorted = [...samples].sort((a, b) => a - b)
  return { n: sorted.length, p50: ms(quantile(sorted, 0.5)), p99: ms(quantile(sorted, 0.99)) }
}

/** `count` requests spread over `concurrency` keep-alive connections, each sending one after another. */
const timeRequests = async (url: string, count: number, concurrency: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
  const samples: Array<number> = []
  const statuses = new Map<number, number>()
  let next = 0
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          next++
          const answer = await get(url, agent)
          samples.push(answer.ttfbMs)
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        }
      })
    )
  } finally {
    agent.destroy()
  }
  return { ...ttfbStats(samples), statuses: Object.fromEntries(statuses) }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

export async function run(): Promise<void> {
  const db = await createTempDatabase(benchDatabaseUrl())
  try {
    const env = { DATABASE_URL: db.url }
    const { key } = await provision(env, "public-form-bench")
    const server = await startServer(env)
    try {
      const origin = server.origin
      const api = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(`${origin}/forms/api/v1${path}`, {
          method,
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        const json = (await r.json()) as { data: Record<string, unknown>; error?: unknown }
        if (!r.ok) throw new Error(`${method} ${path} answered ${r.status}: ${JSON.stringify(json.error)}`)
        return json.data
      }
      const form = (await api("POST", "/forms", { title: "Customer experience survey 2025" })) as {
        id: string
        slug: string
        settingsSignature: string
      }
      const upload = async () => {
        const r = await fetch(`${origin}/forms/api/v1/forms/${form.id}/assets`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "image/png" },
          body: PNG
        })
        return ((await r.json()) as { data: { key: string } }).data.key
      }
      await api("PATCH", `/forms/${form.id}`, {
        definition: definition(await upload()),
        expectedDraftRevision: 1
      })
      await api("PATCH", `/forms/${form.id}/settings`, {
        settings: { renderMode: "classic", theme: { logoKey: await upload() } },
        expectedSettingsSignature: form.settingsSignature
      })
      await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 2 })
      const pageUrl = `${origin}/f/${form.slug}`

      // (a) Time to first byte, after a warm-up on the same URL.
      await timeRequests(pageUrl, WARMUP, CONCURRENCY)
      const sequential = await timeRequests(pageUrl, REQUESTS, 1)
      const concurrent = await timeRequests(pageUrl, REQUESTS * 2, CONCURRENCY)

      // (b) Transfer size: the HTML and what it links, as a browser fetches them.
      const agent = new Agent({ keepAlive: true })
      const page = await get(pageUrl, agent)
      const html = decoded(page).toString("utf8")
      const resources = [
        { kind: "html" as const, url: pageUrl, answer: page },
        ...(await Promise.all(
          linkedResources(html, pageUrl).map(async (r) => ({ ...r, answer: await get(r.url, agent) }))
        ))
      ]
      agent.destroy()
      const sizeRows = resources.map((r) => ({
        resource: `${r.kind} ${new URL(r.url).pathname}`,
        status: r.answer.status,
        encoding: r.answer.headers["content-encoding"] ?? "identity",
        "wire bytes": r.answer.body.length,
        "decoded bytes": decoded(r.answer).length
      }))
      const wire = sizeRows.reduce((sum, r) => sum + r["wire bytes"], 0)
      const decodedTotal = sizeRows.reduce((sum, r) => sum + r["decoded bytes"], 0)

      const statusText = (s: Record<string, number>) =>
        Object.entries(s)
          .map(([status, count]) => `${count}x${status}`)
          .join(" ")
      printTable([
        {
          what: `GET /f/{slug} first byte, sequential (1 connection)`,
          n: sequential.n,
          "p50 ms": sequential.p50,
          "p99 ms": sequential.p99,
          statuses: statusText(sequential.statuses)
        },
        {
          what: `GET /f/{slug} first byte, ${CONCURRENCY} concurrent connections`,
          n: concurrent.n,
          "p50 ms": concurrent.p50,
          "p99 ms": concurrent.p99,
          statuses: statusText(concurrent.statuses)
        }
      ])
      process.stdout.write("\n")
      printTable(sizeRows)
      const verdict = (ok: boolean) => (ok ? "meets" : "MISSES")
      process.stdout.write(
        `\nfirst byte p50 warm: ${sequential.p50} ms sequential, ${concurrent.p50} ms at ${CONCURRENCY} connections (p99 ${sequential.p99} / ${concurrent.p99} ms); target < ${TTFB_TARGET_MS} ms p50 warm: ${verdict(sequential.p50 < TTFB_TARGET_MS && concurrent.p50 < TTFB_TARGET_MS)}\n` +
          `HTML+CSS+JS: ${kb(wire)} on the wire (${kb(decodedTotal)} decoded) in ${resources.length} resource(s); target < ${kb(SIZE_TARGET_BYTES)} compressed: ${verdict(wire < SIZE_TARGET_BYTES)}\n`
      )
      if (page.status !== 200)
        process.stdout.write(
          `note: GET /f/{slug} answered ${page.status}, not the page: these are the numbers of that answer, re-run once the page exists\n`
        )
      process.stdout.write(
        `written ${writeResult("public-form", {
          at: new Date().toISOString(),
          pageStatus: page.status,
          ttfb: { sequential, concurrent, concurrency: CONCURRENCY, warmup: WARMUP },
          transfer: { wireBytes: wire, decodedBytes: decodedTotal, resources: sizeRows },
          targets: { ttfbP50Ms: TTFB_TARGET_MS, compressedBytes: SIZE_TARGET_BYTES }
        })}\n`
      )
    } finally {
      await stop(server.child)
    }
  } finally {
    await db.drop()
  }
}
