// A property test of every route against hostile input, on a PostgreSQL-family store (NUL bytes and
// lone surrogates only fail there): arbitrary bytes, malformed JSON, wrong content types, hostile
// strings (NUL, lone surrogates, huge numbers, deep nesting, prototype keys) and hostile path and
// query values, to the REST API (full-scope key), the public /f routes and the MCP endpoint. Every
// answer is below 500; every 4xx carries the envelope (or, from MCP, a JSON-RPC error); every write
// is refused and nothing is stored.
import { FORMS_SCOPES } from "@folio/domain"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { openStorage, realStorageName } from "../support/storage.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"

/** Fuzz cases per route; 30 routes, so 1,800 requests in all (about 15 s). */
const RUNS_PER_ROUTE = 60

type Json = Record<string, unknown>

const definition = { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Name" }] }

let app: RunningApp
let key: string
let cleanup: () => Promise<void> = async () => {}
let form: { id: string; slug: string; versionId: string }
let started: { responseId: string; token: string }
/** The continuity cookie of the browser that started `started`: public routes are sent it. */
let continuity = ""

const api = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return (await r.json()) as { data: Json & { items: Array<Json>; nextCursor: string | null } }
}

/** What is stored: forms, their draft tokens, and every response of the one published form. */
const snapshot = async () => {
  const forms = await api("GET", "/forms?limit=100")
  const responses = await api("GET", `/forms/${form.id}/responses?status=partial&projection=full&limit=100`)
  const completed = await api("GET", `/forms/${form.id}/responses?status=completed&limit=100`)
  const current = (await api("GET", `/forms/${form.id}`)).data
  return {
    forms: forms.data.items.map((f) => [f.id, f.title, f.status]),
    draft: [current.title, current.slug, current.draftRevision, current.settingsSignature, current.status],
    partial: responses.data.items.map((r) => [r.id, JSON.stringify(r.answers)]),
    completed: completed.data.items.length
  }
}

// Hostile values --------------------------------------------------------------------------------

const hostileString = fc.oneof(
  fc.constantFrom("\u0000", "a\u0000b", "\ud800", "x\udfff", "\udc00\ud800", "\u0000\ud83d", "\ufeff", ""),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ minLength: 300, maxLength: 3000 })
)
const hugeNumber = fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, 2147483648, -0, 1e-320, 0.5)
/** JSON text spliced in as it is: nesting this deep would overflow JSON.stringify itself. */
class RawJson {
  constructor(readonly text: string) {}
}
const deep = fc
  .tuple(fc.integer({ min: 65, max: 20_000 }), fc.constantFrom("[", '{"a":'))
  .map(([n, open]) => new RawJson(`${open.repeat(n)}1${(open === "[" ? "]" : "}").repeat(n)}`))
const toJson = (value: unknown): string => (value instanceof RawJson ? value.text : JSON.stringify(value))
const hostileValue = fc.oneof(hostileString, hugeNumber, deep, fc.jsonValue({ maxDepth: 3 }))
const PROTOTYPE_KEYS = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"]

/**
 * A JSON object that must be refused: the route's own keys with hostile values, plus at least one
 * thing no route accepts (an unknown or prototype key, or a NUL / lone surrogate somewhere).
 */
const hostileObject = (keys: ReadonlyArray<string>, textOnly = false) =>
  fc
    .tuple(
      fc.dictionary(fc.constantFrom(...keys, "title"), hostileValue, { maxKeys: 4 }),
      textOnly
        ? fc.constantFrom('"title":"a\\u0000"', '"answers":{"b":"\\ud800"}', '"x\\u0000":1')
        : fc.oneof(
            fc.constantFrom(...PROTOTYPE_KEYS).map((k) => `"${k}":{"polluted":true}`),
            fc.constantFrom('"title":"a\\u0000"', '"tittle":"x"', '"answers":{"b":"\\ud800"}', '"x\\u0000":1')
          )
    )
    .map(([fields, poison]) => {
      const members = Object.entries(fields).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      return `{${[...members, poison].join(",")}}`
    })

const parses = (text: string): boolean => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}
const malformedJson = fc.oneof(
  fc.constantFrom("{", "not json", "[1,2", "   ", "\n\t ", '{"a":', "nul", "{'a':1}", '{"a":1}}', "\u0000"),
  // "{" + "}" is valid JSON (an empty object, which a start accepts): only unparsable text counts.
  fc
    .string({ maxLength: 60 })
    .map((s) => `{${s}`)
    .filter((text) => !parses(text))
)
/** Bytes that are never valid JSON nor an image: they start with a byte no JSON or image starts with. */
const arbitraryBytes = fc.uint8Array({ maxLength: 2048 }).map((b) => Uint8Array.from([0x01, ...b]))

const CONTENT_TYPES = [
  "application/json",
  "application/json; charset=utf-16",
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/octet-stream",
  "image/png"
]

interface Case {
  readonly contentType: string
  readonly body: string | Uint8Array
}

/** `keys` undefined: the route takes no body, and only unstorable text makes a JSON object invalid there. */
const bodyCase = (keys: ReadonlyArray<string> | undefined): fc.Arbitrary<Case> =>
  fc.oneof(
    fc.record({
      contentType: fc.constant("application/json"),
      body: hostileObject(keys ?? [], keys === undefined)
    }),
    fc.record({ contentType: fc.constant("application/json"), body: malformedJson }),
    fc.record({ contentType: fc.constantFrom(...CONTENT_TYPES), body: arbitraryBytes }),
    fc.record({
      contentType: fc.constantFrom(...CONTENT_TYPES.filter((t) => !t.startsWith("application/json"))),
      body: hostileObject(keys ?? [])
    })
  )

const hostileSegment = fc.oneof(
  fc.constantFrom("%00", "a%00b", "%ED%A0%80", "%FF", "%", "%2F", "x".repeat(300), "null", "0"),
  fc.uuid(),
  // Lone surrogates have no percent-encoding; the other binary strings do.
  fc
    .string({ unit: "binary", minLength: 1, maxLength: 20 })
    .filter((s) => !/[\ud800-\udfff]/.test(s))
    .map(encodeURIComponent)
)
const QUERY_NAMES = [
  "limit",
  "cursor",
  "search",
  "kind",
  "status",
  "projection",
  "values",
  "layout",
  "deidentified",
  "q",
  "from",
  "to",
  "blockId",
  "filename"
]
const cursorValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }).map((v) => Buffer.from(JSON.stringify(v)).toString("base64url")),
  fc
    .constantFrom(
      ["2020-13-45T99:99:99.999Z", "01a20000-0000-7000-8000-000000000000"],
      ["2020-02-30T00:00:00.000Z", "01a20000-0000-7000-8000-000000000000"],
      [2147483648],
      [1e300],
      ["\u0000"]
    )
    .map((v) => Buffer.from(JSON.stringify(v)).toString("base64url"))
)
const query = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom(...QUERY_NAMES), fc.constantFrom("__proto__", "x\u0000")),
      fc.oneof(
        hostileString.filter((s) => s.length < 1000),
        cursorValue,
        hugeNumber.map(String)
      )
    ),
    { maxLength: 4 }
  )
  .chain((pairs) =>
    fc.constantFrom("", "&raw=%00", "&raw=%ED%A0%80", "&limit=%00").map((raw) => {
      const encoded = new URLSearchParams(pairs).toString()
      return `?${encoded}${raw}`
    })
  )

// Routes ----------------------------------------------------------------------------------------

type Surface = "rest" | "public" | "mcp"
interface Route {
  readonly surface: Surface
  readonly method: string
  /** The path; `{id}`-style holes are filled with the real ids or, sometimes, hostile segments. */
  readonly path: () => string
  readonly keys: ReadonlyArray<string> | undefined
  readonly holes: number
}

const routes = (): ReadonlyArray<Route> => {
  const rest = (method: string, path: string, keys?: ReadonlyArray<string>): Route => ({
    surface: "rest",
    method,
    path: () => `/forms/api/v1${path}`,
    keys,
    holes: (path.match(/\{\}/g) ?? []).length
  })
  const pub = (method: string, path: string, keys?: ReadonlyArray<string>): Route => ({
    surface: "public",
    method,
    path: () => path,
    keys,
    holes: (path.match(/\{\}/g) ?? []).length
  })
  return [
    rest("GET", "/capabilities"),
    rest("GET", "/usage"),
    rest("GET", "/forms"),
    rest("POST", "/forms", ["title", "kind", "definition", "settings"]),
    rest("GET", `/forms/{}`),
    rest("PATCH", `/forms/{}`, ["definition", "expectedDraftRevision"]),
    rest("DELETE", `/forms/{}`),
    rest("GET", `/forms/{}/versions`),
    rest("GET", `/forms/{}/versions/{}`),
    rest("POST", `/forms/{}/duplicate`),
    rest("POST", `/forms/{}/publish`, ["expectedDraftRevision"]),
    rest("POST", `/forms/{}/unpublish`, ["expectedDraftRevision"]),
    rest("PATCH", `/forms/{}/slug`, ["slug"]),
    rest("PATCH", `/forms/{}/settings`, ["settings", "expectedSettingsSignature"]),
    rest("POST", `/forms/{}/assets`),
    rest("GET", `/forms/{}/responses`),
    rest("GET", `/forms/{}/responses/summary`),
    rest("GET", `/forms/{}/responses/{}`),
    rest("GET", `/forms/{}/responses.csv`),
    rest("GET", `/forms/{}/reports`),
    rest("GET", `/forms/{}/insights`),
    rest("GET", `/forms/{}/interview-analytics`),
    rest("GET", `/forms/{}/files/{}`),
    pub("GET", `/f/{}/form`),
    pub("POST", `/f/{}/responses`, ["params", "confirmRepeat"]),
    pub("POST", `/f/{}/responses/{}/files`),
    pub("PATCH", `/f/{}/responses/{}`, ["token", "answers"]),
    pub("POST", `/f/{}/responses/{}/complete`, ["token", "answers"]),
    pub("POST", `/f/{}/responses/resume`),
    { surface: "mcp", method: "POST", path: () => "/forms/mcp", keys: undefined, holes: 0 }
  ]
}

const fill = (path: string, values: ReadonlyArray<string>) => {
  let i = 0
  return path.replace(/\{\}/g, () => values[i++] ?? "x")
}

const MCP_TOOLS = ["forms_query", "forms_create", "forms_update", "forms_publication", "responses_query"]
const mcpCase: fc.Arbitrary<Case> = fc.oneof(
  bodyCase(undefined),
  fc
    .tuple(
      fc.constantFrom(...MCP_TOOLS),
      hostileObject([
        "action",
        "formId",
        "title",
        "definition",
        "settings",
        "expectedDraftRevision",
        "cursor"
      ])
    )
    .map(([name, args]) => ({
      contentType: "application/json",
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`
    }))
)

const isEnvelope = (body: unknown) => {
  const b = body as { ok?: unknown; error?: { code?: unknown; message?: unknown } }
  return b.ok === false && typeof b.error?.code === "string" && typeof b.error.message === "string"
}
const isRpcError = (body: unknown) => {
  const b = body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } }
  return b.jsonrpc === "2.0" && typeof b.error?.code === "number" && typeof b.error.message === "string"
}

beforeAll(async () => {
  const { storage, drop } = await openStorage(realStorageName)
  cleanup = drop
  app = await startApp({
    storage,
    config: { rateLimitPerKey: 1_000_000, authAttemptsPerIp: 1_000_000, respondentRequestsPerIp: 1_000_000 }
  })
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
  const created = (await api("POST", "/forms", { title: "Fuzzed" })).data
  await api("PATCH", `/forms/${created.id}`, { definition, expectedDraftRevision: 1 })
  const published = (await api("POST", `/forms/${created.id}/publish`, { expectedDraftRevision: 2 })).data
  form = {
    id: published.id as string,
    slug: published.slug as string,
    versionId: published.currentVersionId as string
  }
  const start = await fetch(`${app.origin}/f/${form.slug}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: "{}"
  })
  started = ((await start.json()) as { data: typeof started }).data
  continuity = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? ""
}, 120_000)
afterAll(async () => {
  await app?.close()
  await cleanup()
})

describe("hostile input to every route", () => {
  it(`never answers 5xx, always with the envelope, and stores nothing (${RUNS_PER_ROUTE} cases per route)`, async () => {
    const before = await snapshot()
    const counts = new Map<string, number>()
    for (const route of routes()) {
      const name = `${route.method} ${route.path()}`
      const holeValues = fc.array(
        fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, hostileSegment),
        {
          minLength: route.holes,
          maxLength: route.holes
        }
      )
      const sendsBody = route.method !== "GET" && route.method !== "DELETE"
      const input = fc.record({
        holes: holeValues,
        query: route.method === "GET" ? query : fc.constant(""),
        body: sendsBody ? (route.surface === "mcp" ? mcpCase : bodyCase(route.keys)) : fc.constant(undefined),
        auth: fc.boolean()
      })
      await fc.assert(
        fc.asyncProperty(input, async ({ holes, query: search, body, auth }) => {
          const real =
            route.surface === "public" ? [form.slug, started.responseId] : [form.id, form.versionId]
          const values = holes.map((h, i) => h ?? (real[i] as string))
          // A mutation may only succeed when it goes to the real resource with a valid body: never here.
          if (route.method === "DELETE" && values.every((v, i) => v === real[i])) values[0] = "%00"
          const path = `${fill(route.path(), values)}${search}`
          const headers: Record<string, string> = {
            accept: "application/json, text/event-stream",
            ...(route.surface === "public" || !auth ? {} : bearer(key)),
            ...(route.surface === "public" && body !== undefined
              ? { "x-response-token": started.token }
              : {}),
            ...(route.surface === "public" ? { cookie: continuity } : {}),
            ...(body === undefined ? {} : { "content-type": body.contentType })
          }
          const response = await fetch(`${app.origin}${path}`, {
            method: route.method,
            headers,
            ...(body === undefined ? {} : { body: body.body }),
            redirect: "manual",
            signal: AbortSignal.timeout(15_000)
          })
          const text = await response.text()
          counts.set(name, (counts.get(name) ?? 0) + 1)
          const context = `${route.method} ${path.slice(0, 200)} ${JSON.stringify(body)?.slice(0, 200)} -> ${response.status} ${text.slice(0, 300)}`
          expect(response.status, context).toBeLessThan(500)
          if (response.status >= 400) {
            const parsed: unknown = JSON.parse(text)
            if (route.surface === "mcp") expect(isEnvelope(parsed) || isRpcError(parsed), context).toBe(true)
            else expect(isEnvelope(parsed), context).toBe(true)
          }
          // Every body sent is invalid by construction, so no write may succeed.
          if (body !== undefined && route.surface !== "mcp")
            expect(response.status, context).toBeGreaterThanOrEqual(400)
          if (route.surface === "mcp" && response.status === 200) {
            const rpc = JSON.parse(text) as { result?: { isError?: boolean }; error?: unknown }
            expect(rpc.error !== undefined || rpc.result?.isError === true, context).toBe(true)
          }
        }),
        { numRuns: RUNS_PER_ROUTE }
      )
    }
    expect(await snapshot()).toEqual(before)
    const total = [...counts.values()].reduce((a, b) => a + b, 0)
    console.info(`fuzz: ${counts.size} routes, ${total} requests, ${RUNS_PER_ROUTE} per route`)
    expect([...counts.values()].every((n) => n >= RUNS_PER_ROUTE)).toBe(true)
  }, 120_000)
})
