// The sharing service's foundation over real HTTP: its own keys and scopes, GET /me, its envelope
// `{ error, error_code, field }` on its own paths (the forms paths keep theirs), and its public
// OpenAPI document.
import { KEY_CACHE_TTL_MS } from "@folio/adapters-storage"
import { FORMS_SCOPES, issueApiKey, setTenantDisabled } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { freshRateWindow } from "../support/rate-window.js"
import { until } from "../support/smtp.js"

let app: RunningApp
let reader: { key: string; workspaceId: string }
let writer: { key: string; workspaceId: string }
let formsKey: { key: string; workspaceId: string }

const get = async (path: string, key?: string) => {
  const response = await fetch(`${app.origin}${path}`, { headers: key === undefined ? {} : bearer(key) })
  const text = await response.text()
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: () => JSON.parse(text) as Record<string, unknown>
  }
}

beforeAll(async () => {
  app = await startApp()
  reader = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
  writer = await newWorkspaceKey(app, ["write"], "sharing")
  formsKey = await newWorkspaceKey(app, [...FORMS_SCOPES])
})
afterAll(async () => app.close())

describe("GET /share/api/v1/me", () => {
  it("tells the account, the key, storage against the quota, creatable types and features", async () => {
    const me = await get("/share/api/v1/me", reader.key)
    expect(me.status).toBe(200)
    const body = me.json()
    expect(body).toMatchObject({
      account: { id: reader.workspaceId, name: "Test workspace" },
      key: { scopes: ["read", "write", "delete"] },
      storage: { used_bytes: 0, quota_bytes: 1024 * 1024 * 1024 },
      creatable_types: ["link", "markdown", "collection", "notion", "bio", "file", "image", "artifact"],
      features: { artifacts_enabled: true, uploads_enabled: true }
    })
    expect(me.headers.get("x-ratelimit-limit")).not.toBeNull()
  })

  it("answers a missing, unknown or forms key with invalid_api_key in the sharing envelope", async () => {
    for (const key of [undefined, "folio_nope", formsKey.key]) {
      const me = await get("/share/api/v1/me", key)
      expect(me.status).toBe(401)
      expect(me.json()).toEqual({ error: expect.any(String), error_code: "invalid_api_key" })
    }
  })

  it("needs the read scope: scopes do not include each other", async () => {
    const me = await get("/share/api/v1/me", writer.key)
    expect(me.status).toBe(403)
    expect(me.json()).toMatchObject({ error_code: "insufficient_scope" })
  })

  it("does not let a sharing key into the forms API", async () => {
    const forms = await get("/forms/api/v1/capabilities", reader.key)
    expect(forms.status).toBe(401)
    expect(forms.json()).toMatchObject({ ok: false, error: { code: "unauthorized" } })
  })
})

describe("the sharing envelope on the sharing paths", () => {
  it("answers unknown routes under /share and /s in the sharing envelope, and forms paths in theirs", async () => {
    const unknown = await get("/share/api/v1/nothing-here", reader.key)
    expect(unknown.status).toBe(404)
    expect(unknown.json()).toEqual({ error: "no such route", error_code: "not_found" })
    const forms = await get("/forms/api/v1/nothing-here")
    expect(forms.json()).toMatchObject({ ok: false, error: { code: "not_found" } })
  })

  it("refuses a body that is not JSON with request_body_invalid", async () => {
    const response = await fetch(`${app.origin}/share/api/v1/resources`, {
      method: "POST",
      headers: { ...bearer(reader.key), "content-type": "application/json" },
      body: "{not json"
    })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    const body = (await response.json()) as Record<string, unknown>
    expect(Object.keys(body).sort()).toEqual(["error", "error_code"])
    expect(response.status).toBe(400)
    expect(body.error_code).toBe("request_body_invalid")
  })
})

describe("GET /share/api/v1/openapi.yaml", () => {
  it("is public OpenAPI 3.1 YAML generated from the API, with the sharing envelope", async () => {
    const doc = await get("/share/api/v1/openapi.yaml")
    expect(doc.status).toBe(200)
    expect(doc.headers.get("content-type")).toBe("application/yaml; charset=utf-8")
    const spec = parse(doc.text) as {
      openapi: string
      paths: Record<string, unknown>
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> }
    }
    expect(spec.openapi).toMatch(/^3\.1/)
    // Paths are relative to the server URL, as a generated client joins them.
    expect(Object.keys(spec.paths)).toContain("/me")
    expect(Object.keys(spec.components.schemas.InvalidApiKeyError?.properties ?? {}).sort()).toEqual([
      "error",
      "error_code",
      "field"
    ])
  })
})

describe("sharing budgets", () => {
  it("spends 100 a minute per key by default, and the address's budget across keys", async () => {
    const limited = await startApp({ config: { sharingRequestsPerKey: 3, sharingRequestsPerIp: 5 } })
    try {
      const one = await newWorkspaceKey(limited, ["read"], "sharing")
      const two = await newWorkspaceKey(limited, ["read"], "sharing")
      const call = (key: string) => fetch(`${limited.origin}/share/api/v1/me`, { headers: bearer(key) })
      await freshRateWindow()
      const first = await Promise.all([1, 2, 3, 4].map(() => call(one.key)))
      expect(first.map((r) => r.status).sort()).toEqual([200, 200, 200, 429])
      const over = first.find((r) => r.status === 429)
      expect(over?.headers.get("retry-after")).toMatch(/^\d+$/)
      expect(await over?.json()).toMatchObject({ error_code: "rate_limited" })
      expect(first.find((r) => r.status === 200)?.headers.get("x-ratelimit-limit")).toBe("3")
      // Four requests so far from this address: one more fits, then the address is over budget.
      expect((await call(two.key)).status).toBe(200)
      const address = await call(two.key)
      expect(address.status).toBe(429)
      expect(await address.json()).toMatchObject({ error_code: "rate_limited" })
      // The forms API keeps its own budgets.
      const forms = await newWorkspaceKey(limited, [...FORMS_SCOPES])
      expect(
        (await fetch(`${limited.origin}/forms/api/v1/usage`, { headers: bearer(forms.key) })).status
      ).toBe(200)
    } finally {
      await limited.close()
    }
  })
})

describe("a disabled account", () => {
  it("has every key refused: user_disabled on sharing, forbidden on forms; enabled again, they work", async () => {
    const sharing = await newWorkspaceKey(app, ["read"], "sharing")
    const forms = await app.run(
      Effect.map(
        issueApiKey({ tenantId: sharing.workspaceId, service: "forms", name: "f", scopes: ["forms:read"] }),
        (k) => k.plaintext
      )
    )
    await app.run(setTenantDisabled(sharing.workspaceId, true))
    // Keys are cached for a few seconds on the request path; the refusal follows within that time.
    const me = await until(
      () => get("/share/api/v1/me", sharing.key),
      (r) => r.status !== 200,
      KEY_CACHE_TTL_MS + 200
    )
    expect(me.status).toBe(403)
    expect(me.json()).toEqual({ error: "account is disabled", error_code: "user_disabled" })
    const capabilities = await get("/forms/api/v1/capabilities", forms)
    expect(capabilities.status).toBe(403)
    expect(capabilities.json()).toMatchObject({
      ok: false,
      error: { code: "forbidden", message: "account is disabled" }
    })
    await app.run(setTenantDisabled(sharing.workspaceId, false))
    const again = await until(
      () => get("/share/api/v1/me", sharing.key),
      (r) => r.status === 200,
      KEY_CACHE_TTL_MS + 200
    )
    expect(again.status).toBe(200)
  }, 30_000)
})

describe("usage per service", () => {
  it("counts one tenant's sharing requests apart from its forms requests", async () => {
    const sharing = await newWorkspaceKey(app, ["read"], "sharing")
    const forms = await app.run(
      issueApiKey({
        tenantId: sharing.workspaceId,
        service: "forms",
        name: "forms",
        scopes: [...FORMS_SCOPES]
      })
    )
    for (let i = 0; i < 3; i++) expect((await get("/share/api/v1/me", sharing.key)).status).toBe(200)
    const first = await get("/forms/api/v1/usage", forms.plaintext)
    expect(first.status).toBe(200)
    const last24h = (r: typeof first) => (r.json().data as { requests: { last24h: number } }).requests.last24h
    expect(last24h(first)).toBe(0)
    const second = await get("/forms/api/v1/usage", forms.plaintext)
    expect(last24h(second)).toBe(1)
  })
})
