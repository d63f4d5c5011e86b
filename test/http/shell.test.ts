// The HTTP shell over real HTTP: authentication, the error envelope on every failure path, rate-limit
// and request-id headers, usage from recorded requests (and a key's last use), the body cap and the
// OpenAPI document.
import { ApiKeyRepository, FORMS_SCOPES } from "@folio/domain"
import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey, revoke } from "../support/keys.js"

let app: RunningApp
let key: Awaited<ReturnType<typeof newWorkspaceKey>>
const api = (path: string) => `${app.origin}/forms/api/v1${path}`

const expectEnvelope = async (response: Response, status: number, code: string) => {
  expect(response.status).toBe(status)
  expect(response.headers.get("content-type")).toContain("application/json")
  const body = (await response.json()) as { ok: boolean; error: { code: string; message: string } }
  expect(body.ok).toBe(false)
  expect(body.error.code).toBe(code)
  expect(typeof body.error.message).toBe("string")
  return body
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 30, authAttemptsPerIp: 100_000 } })
  key = await newWorkspaceKey(app, [...FORMS_SCOPES])
})
afterAll(() => app.close())

describe("authentication", () => {
  it("answers 401 for a missing, malformed, unknown or revoked key", async () => {
    await expectEnvelope(await fetch(api("/usage")), 401, "unauthorized")
    await expectEnvelope(await fetch(api("/usage"), { headers: bearer("not-a-key") }), 401, "unauthorized")
    const unknown = `folio_${"a".repeat(12)}_${"b".repeat(43)}`
    await expectEnvelope(await fetch(api("/usage"), { headers: bearer(unknown) }), 401, "unauthorized")
    // Right prefix, wrong secret: the hash comparison must reject it.
    const forged = `${key.key.slice(0, -1)}${key.key.endsWith("a") ? "b" : "a"}`
    await expectEnvelope(await fetch(api("/usage"), { headers: bearer(forged) }), 401, "unauthorized")

    const other = await newWorkspaceKey(app, ["forms:read"])
    expect((await fetch(api("/usage"), { headers: bearer(other.key) })).status).toBe(200)
    await revoke(app, other.workspaceId, other.keyId)
    await expectEnvelope(await fetch(api("/usage"), { headers: bearer(other.key) }), 401, "unauthorized")
  })

  it("answers a key issued for the sharing service exactly as an unknown key", async () => {
    const sharing = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
    const unknown = `folio_${"c".repeat(12)}_${"d".repeat(43)}`
    const refusals = await Promise.all(
      [unknown, sharing.key].map(async (presented) => {
        const response = await fetch(api("/usage"), { headers: bearer(presented) })
        return { status: response.status, body: await expectEnvelope(response, 401, "unauthorized") }
      })
    )
    expect(refusals[1]).toEqual(refusals[0])
  })

  it("reports capabilities filtered to the key's scopes", async () => {
    const reader = await newWorkspaceKey(app, ["forms:read", "files:read"])
    const response = await fetch(api("/capabilities"), { headers: bearer(reader.key) })
    const body = (await response.json()) as {
      data: { scopes: Array<string>; blockTypes: Array<{ type: string }> }
    }
    expect(body.data.scopes).toEqual(["forms:read", "files:read"])
    expect(body.data.blockTypes).toHaveLength(23)
  })
})

describe("rate limits and usage", () => {
  it("sends X-RateLimit-* and X-Request-Id, counts down, then 429 with Retry-After", async () => {
    const fresh = await newWorkspaceKey(app, ["forms:read"])
    const remaining: Array<number> = []
    for (let i = 0; i < 30; i++) {
      const response = await fetch(api("/capabilities"), { headers: bearer(fresh.key) })
      expect(response.status).toBe(200)
      expect(response.headers.get("x-ratelimit-limit")).toBe("30")
      expect(response.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      expect(Number(response.headers.get("x-ratelimit-reset"))).toBeGreaterThan(0)
      remaining.push(Number(response.headers.get("x-ratelimit-remaining")))
      await response.arrayBuffer()
    }
    // A window boundary may fall inside the loop; within one window the budget only goes down.
    expect(remaining.at(-1)).toBeLessThan(remaining[0] ?? 0)
    let limited: Response | undefined
    for (let i = 0; i < 31 && limited === undefined; i++) {
      const response = await fetch(api("/capabilities"), { headers: bearer(fresh.key) })
      if (response.status === 429) limited = response
      else await response.arrayBuffer()
    }
    if (limited === undefined) throw new Error("never rate limited")
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
    await expectEnvelope(limited, 429, "rate_limited")
  })

  it("keeps an incoming request id that looks like one", async () => {
    const response = await fetch(api("/usage"), {
      headers: { ...bearer(key.key), "x-request-id": "trace-abc-12345" }
    })
    expect(response.headers.get("x-request-id")).toBe("trace-abc-12345")
    await response.arrayBuffer()
  })

  it("reports the workspace's real request counts by status class", async () => {
    const fresh = await newWorkspaceKey(app, ["forms:read"])
    for (let i = 0; i < 3; i++)
      await (await fetch(api("/capabilities"), { headers: bearer(fresh.key) })).arrayBuffer()
    await (await fetch(api("/nope"), { headers: bearer(fresh.key) })).arrayBuffer()
    // Usage is recorded off the response path; give the writes a moment.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const body = (await (await fetch(api("/usage"), { headers: bearer(fresh.key) })).json()) as {
      data: {
        key: { id: string }
        rateLimit: { limit: number; remaining: number }
        requests: Record<string, unknown>
      }
    }
    expect(body.data.key.id).toBe(fresh.keyId)
    expect(body.data.rateLimit.limit).toBe(30)
    expect(body.data.requests).toEqual({
      last24h: 3,
      last7d: 3,
      byStatusLast24h: { ok: 3, clientError: 0, serverError: 0 }
    })
  })

  it("shows when a key was last used once its usage is flushed, without a write per request", async () => {
    const fresh = await newWorkspaceKey(app, ["forms:read"])
    const lastUsedAt = async () =>
      (await app.run(Effect.flatMap(ApiKeyRepository, (r) => r.list(fresh.workspaceId))))[0]?.lastUsedAt
    expect(await lastUsedAt()).toBeNull()
    const before = Math.floor(Date.now() / 60_000) * 60_000
    await (await fetch(api("/capabilities"), { headers: bearer(fresh.key) })).arrayBuffer()
    // /usage flushes the pending tallies (and with them the keys' last use) before it answers.
    await (await fetch(api("/usage"), { headers: bearer(fresh.key) })).arrayBuffer()
    const used = await lastUsedAt()
    expect(used).toBeInstanceOf(Date)
    // Tallies are per minute: the minute of the request.
    expect(used?.getTime()).toBeGreaterThanOrEqual(before)
    expect(used?.getTime()).toBeLessThanOrEqual(Date.now())
  })
})

describe("the error envelope", () => {
  it("covers unknown routes, bad JSON and oversized bodies", async () => {
    await expectEnvelope(await fetch(api("/nothing-here"), { headers: bearer(key.key) }), 404, "not_found")
    await expectEnvelope(await fetch(`${app.origin}/elsewhere`), 404, "not_found")
    const big = "x".repeat(1024 * 1024 + 1)
    await expectEnvelope(
      await fetch(api("/usage"), {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/json" },
        body: big
      }),
      413,
      "payload_too_large"
    )
  })

  it("never answers 5xx or a non-envelope body to random requests", async () => {
    // A second app without a tight budget, so authenticated requests reach the routes, not the limiter.
    const roomy = await startApp({ config: { rateLimitPerKey: 100_000 } })
    const roomyKey = (await newWorkspaceKey(roomy, [...FORMS_SCOPES])).key
    const roomyApi = (path: string) => `${roomy.origin}/forms/api/v1${path}`
    const statuses = new Set<number>()
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PATCH", "DELETE", "PUT"),
        fc.constantFrom(
          "/capabilities",
          "/usage",
          "/forms",
          "/openapi.json",
          "/x/y/z",
          "",
          "/forms/00000000-0000-4000-8000-000000000000",
          "/forms/not-a-uuid",
          "/forms/00000000-0000-4000-8000-000000000000/publish",
          "/forms/00000000-0000-4000-8000-000000000000/unpublish",
          "/forms/00000000-0000-4000-8000-000000000000/settings",
          "/forms/00000000-0000-4000-8000-000000000000/slug",
          "/forms/00000000-0000-4000-8000-000000000000/versions",
          "/forms/00000000-0000-4000-8000-000000000000/versions/zzz",
          "/forms/00000000-0000-4000-8000-000000000000/duplicate",
          "/forms/00000000-0000-4000-8000-000000000000/assets"
        ),
        fc.string({ maxLength: 30 }),
        fc.option(fc.json({ maxDepth: 3 }), { nil: undefined }),
        fc.boolean(),
        async (method, path, query, body, authed) => {
          const url = `${roomyApi(path)}?q=${encodeURIComponent(query)}`
          const headers: Record<string, string> = authed ? bearer(roomyKey) : {}
          const init: RequestInit = { method, headers }
          if (body !== undefined && method !== "GET") {
            headers["content-type"] = "application/json"
            init.body = body
          }
          const response = await fetch(url, init)
          statuses.add(response.status)
          expect(response.status).toBeLessThan(500)
          const text = await response.text()
          if (response.status >= 400) {
            const parsed = JSON.parse(text) as { ok: boolean; error: { code: string } }
            expect(parsed.ok).toBe(false)
            expect(typeof parsed.error.code).toBe("string")
          }
        }
      ),
      { numRuns: 150 }
    )
    await roomy.close()
    // The requests really reached handlers: validation, scope and lookup answers, not just 401/429.
    expect([...statuses]).toEqual(expect.arrayContaining([400, 401, 404]))
  })
})

describe("the OpenAPI document", () => {
  it("is served without auth, with CORS *, as OpenAPI 3.1 describing the bearer scheme", async () => {
    const response = await fetch(api("/openapi.json"))
    expect(response.status).toBe(200)
    expect(response.headers.get("access-control-allow-origin")).toBe("*")
    const doc = (await response.json()) as {
      openapi: string
      info: { version: string }
      paths: Record<string, unknown>
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> }
    }
    expect(doc.openapi).toBe("3.1.0")
    expect(doc.info.version).toBe("1.0.0")
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/forms/api/v1/capabilities", "/forms/api/v1/usage"])
    )
    expect(Object.values(doc.components.securitySchemes)).toContainEqual(
      expect.objectContaining({ type: "http", scheme: "bearer" })
    )
  })
})
