// Public serving at /s/{slug}: link redirects (rules, sticky variants, visitor cookie, fallback),
// link-preview bots, Markdown and placeholder pages, visibility, the state pages, password unlock
// with its budget, and views counted once per visitor, written in batches, none lost at shutdown.
import {
  PASSWORD_ATTEMPT_WINDOW_MS,
  PasswordHasher,
  type ResourceRecord,
  ResourceRepository,
  ViewCounter
} from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { freshRateWindow } from "../support/rate-window.js"
import { openStorage, realStorageName } from "../support/storage.js"
import { at, resource } from "../storage/fixtures.js"

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
const DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36"
const SLACK = "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)"
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"

let app: RunningApp
let tenantId: string

beforeAll(async () => {
  app = await startApp()
  tenantId = (await newWorkspaceKey(app, ["read"], "sharing")).workspaceId
})
afterAll(async () => app.close())

type Overrides<T extends ResourceRecord["type"]> = Parameters<typeof resource<T>>[2]

const create = async <T extends ResourceRecord["type"]>(type: T, overrides: Overrides<T> = {}) => {
  const r = resource(tenantId, type, { createdAt: new Date(), updatedAt: new Date(), ...overrides })
  await app.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
  return r
}

const link = (overrides: Overrides<"link"> = {}, data: Partial<ResourceRecord["data"]> = {}) =>
  create("link", {
    ...overrides,
    data: {
      targetUrl: "https://example.com/target",
      redirectRules: [{ conditions: { device: ["mobile"] }, target_url: "https://m.example.com/" }],
      testVariants: [
        { url: "https://a.example.com/", weight: 1 },
        { url: "https://b.example.com/", weight: 1 }
      ],
      fallbackUrl: null,
      webhookClicks: false,
      ogTitle: null,
      ogDescription: null,
      ogImageUrl: null,
      ...data
    }
  })

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${app.origin}${path}`, { redirect: "manual", headers: { "user-agent": DESKTOP, ...headers } })

const cookieOf = (response: Response, name: string) =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0]

const viewsOf = async (id: string) =>
  app.run(
    Effect.gen(function* () {
      yield* Effect.flatMap(ViewCounter, (v) => v.flush)
      const r = yield* Effect.flatMap(ResourceRepository, (repo) => repo.get(tenantId, id))
      return Option.getOrThrow(r).viewCount
    })
  )

describe("GET /s/{slug}: links", () => {
  it("redirects by rule, else by a variant sticky to the visitor cookie it mints, never cached", async () => {
    const r = await link()
    const first = await get(`/s/${r.slug}?utm_source=x`)
    expect(first.status).toBe(302)
    expect(first.headers.get("cache-control")).toBe("private, no-store")
    const setCookie = first.headers.getSetCookie().find((c) => c.startsWith("svc_v="))
    expect(setCookie).toMatch(/; Max-Age=31536000; Path=\/s\/; HttpOnly; SameSite=Lax$/)
    const visitor = cookieOf(first, "svc_v") ?? ""
    const location = first.headers.get("location") ?? ""
    expect(location).toMatch(/^https:\/\/[ab]\.example\.com\/\?utm_source=x$/)
    // The same visitor keeps its variant and gets no new cookie.
    for (let i = 0; i < 5; i++) {
      const again = await get(`/s/${r.slug}?utm_source=x`, { cookie: visitor })
      expect(again.headers.get("location")).toBe(location)
      expect(cookieOf(again, "svc_v")).toBeUndefined()
    }
    // Visitors spread over both variants.
    const seen = new Set<string>()
    for (let i = 0; i < 40; i++) seen.add((await get(`/s/${r.slug}`)).headers.get("location") ?? "")
    expect(seen).toEqual(new Set(["https://a.example.com/", "https://b.example.com/"]))
    // A phone matches the rule first.
    const phone = await get(`/s/${r.slug}`, { "user-agent": IPHONE })
    expect(phone.headers.get("location")).toBe("https://m.example.com/")
  })

  it("shows link-preview bots the og_* tags and counts them as no view; search crawlers follow the redirect", async () => {
    const r = await link(
      {},
      { ogTitle: "Spring <launch>", ogDescription: "What ships", ogImageUrl: "https://example.com/og.png" }
    )
    const bot = await get(`/s/${r.slug}`, { "user-agent": SLACK })
    expect(bot.status).toBe(200)
    const body = await bot.text()
    expect(body).toContain('<meta property="og:title" content="Spring &lt;launch&gt;">')
    expect(body).toContain('<meta property="og:image" content="https://example.com/og.png">')
    expect(body).toContain(`<meta property="og:url" content="${app.origin}/s/${r.slug}">`)
    expect(bot.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect((await get(`/s/${r.slug}`, { "user-agent": GOOGLEBOT })).status).toBe(302)
    // Without og_* fields a preview bot follows the redirect too.
    const plain = await link()
    expect((await get(`/s/${plain.slug}`, { "user-agent": SLACK })).status).toBe(302)
    expect(await viewsOf(r.id)).toBe(1)
  })

  it("answers 404 before starts_at and 410 after expires_at, or goes to fallback_url", async () => {
    const soon = await link({ startsAt: new Date(Date.now() + 3_600_000) })
    const soonRes = await get(`/s/${soon.slug}`)
    expect(soonRes.status).toBe(404)
    expect(await soonRes.text()).toContain("Not available yet")
    const gone = await link({ expiresAt: new Date(Date.now() - 1000) })
    const goneRes = await get(`/s/${gone.slug}`)
    expect(goneRes.status).toBe(410)
    expect(await goneRes.text()).toContain("This page has expired")
    const withFallback = await link(
      {
        expiresAt: new Date(Date.now() - 1000),
        passwordHash: await app.run(Effect.flatMap(PasswordHasher, (h) => h.hash("pw")))
      },
      { fallbackUrl: "https://example.com/sorry" }
    )
    const fb = await get(`/s/${withFallback.slug}?a=1`)
    expect(fb.status).toBe(302)
    expect(fb.headers.get("location")).toBe("https://example.com/sorry?a=1")
    expect(await viewsOf(withFallback.id)).toBe(0)
  })

  it("counts a visitor once per 30 minutes and stops at max_views with 410", async () => {
    const r = await link({ maxViews: 2 })
    const one = await get(`/s/${r.slug}`)
    const visitor = cookieOf(one, "svc_v") ?? ""
    // The view is marked by a cookie on the resource's own path, for 30 minutes.
    const seen = one.headers.getSetCookie().find((c) => c.startsWith("svc_seen="))
    expect(seen).toBe(`svc_seen=${r.id}; Max-Age=1800; Path=/s/${r.slug}; HttpOnly; SameSite=Lax`)
    const mark = cookieOf(one, "svc_seen") ?? ""
    for (let i = 0; i < 3; i++) {
      const again = await get(`/s/${r.slug}`, { cookie: `${visitor}; ${mark}` })
      expect(again.status).toBe(302)
      expect(cookieOf(again, "svc_seen")).toBeUndefined()
    }
    // A second visitor makes two views: the limit is reached, before or after the flush.
    expect((await get(`/s/${r.slug}`)).status).toBe(302)
    expect((await get(`/s/${r.slug}`)).status).toBe(410)
    expect(await viewsOf(r.id)).toBe(2)
    const after = await get(`/s/${r.slug}`)
    expect(after.status).toBe(410)
    expect(await after.text()).toContain("viewed as many times")
  })
})

describe("GET /s/{slug}: the warm redirect (answered on node:http ahead of the routes)", () => {
  it("answers a warm link as the route answered it cold: headers, request id, noindex, counted views", async () => {
    const r = await link({ visibility: "unlisted" }, { testVariants: null, redirectRules: null })
    const cold = await get(`/s/${r.slug}`, { "x-request-id": "client-chosen-id-1" })
    const warm = await get(`/s/${r.slug}`, { "x-request-id": "client-chosen-id-2" })
    for (const [response, id] of [
      [cold, "client-chosen-id-1"],
      [warm, "client-chosen-id-2"]
    ] as const) {
      expect(response.status).toBe(302)
      expect(response.headers.get("location")).toBe("https://example.com/target")
      expect(response.headers.get("cache-control")).toBe("private, no-store")
      expect(response.headers.get("x-robots-tag")).toBe("noindex, nofollow")
      expect(response.headers.get("x-request-id")).toBe(id)
      expect(cookieOf(response, "svc_v")).toMatch(/^svc_v=[A-Za-z0-9_-]{22}$/)
    }
    // The same cookies, byte for byte but for the ids: the visitor's and the mark of the view.
    const shape = (response: Response) =>
      response.headers.getSetCookie().map((c) => c.replace(/=[^;]*/, "=ID"))
    expect(shape(warm)).toEqual(shape(cold))
    expect(shape(warm)).toHaveLength(2)
    const minted = (await get(`/s/${r.slug}`)).headers.get("x-request-id") ?? ""
    expect(minted).toMatch(/^[0-9a-f-]{36}$/)
    // Three new visitors, one reload (counted once), and a mark of another resource (no mark here).
    await get(`/s/${r.slug}`, { cookie: `${cookieOf(warm, "svc_v")}; ${cookieOf(warm, "svc_seen")}` })
    expect(cookieOf(warm, "svc_seen")).toBe(`svc_seen=${r.id}`)
    await get(`/s/${r.slug}`, { cookie: "svc_seen=00000000-0000-4000-8000-000000000000" })
    expect(await viewsOf(r.id)).toBe(4)
  })

  it("routes by the visitor's country from the configured header, cold and warm", async () => {
    const r = await link(
      {},
      {
        testVariants: null,
        redirectRules: [{ conditions: { country: ["DE", "AT"] }, target_url: "https://de.example.com/" }]
      }
    )
    for (let i = 0; i < 2; i++) {
      expect((await get(`/s/${r.slug}`, { "cf-ipcountry": "de" })).headers.get("location")).toBe(
        "https://de.example.com/"
      )
      expect((await get(`/s/${r.slug}`, { "cf-ipcountry": "FR" })).headers.get("location")).toBe(
        "https://example.com/target"
      )
      // Tor and unknown are no country.
      expect((await get(`/s/${r.slug}`, { "cf-ipcountry": "T1" })).headers.get("location")).toBe(
        "https://example.com/target"
      )
    }
  })

  it("leaves password links and HEAD to the routes", async () => {
    const hash = await app.run(Effect.flatMap(PasswordHasher, (h) => h.hash("pw")))
    const guarded = await link({ passwordHash: hash })
    for (let i = 0; i < 2; i++) {
      const page = await get(`/s/${guarded.slug}`)
      expect(page.status).toBe(200)
      expect(await page.text()).toContain("password")
    }
    const open = await link()
    await get(`/s/${open.slug}`)
    const head = await fetch(`${app.origin}/s/${open.slug}`, { method: "HEAD", redirect: "manual" })
    expect(head.status).toBe(302)
  })
})

describe("the country header is configurable", () => {
  it("reads no country when SHARING_COUNTRY_HEADER is none", async () => {
    const other = await startApp({ config: { sharingCountryHeader: Option.none() } })
    try {
      const tenant = (await newWorkspaceKey(other, ["read"], "sharing")).workspaceId
      const r = resource(tenant, "link", {
        data: {
          targetUrl: "https://example.com/target",
          redirectRules: [{ conditions: { country: ["DE"] }, target_url: "https://de.example.com/" }],
          testVariants: null,
          fallbackUrl: null,
          webhookClicks: false,
          ogTitle: null,
          ogDescription: null,
          ogImageUrl: null
        }
      })
      await other.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
      for (let i = 0; i < 2; i++) {
        const response = await fetch(`${other.origin}/s/${r.slug}`, {
          redirect: "manual",
          headers: { "cf-ipcountry": "DE" }
        })
        expect(response.headers.get("location")).toBe("https://example.com/target")
      }
    } finally {
      await other.close()
    }
  })
})

describe("GET /s/{slug}: pages and visibility", () => {
  it("renders a Markdown page, sanitized; unlisted pages are served with noindex", async () => {
    const r = await create("markdown", {
      title: "Notes",
      data: { body: "# Hello\n\n<script>alert(1)</script>\n\n*fine*" }
    })
    const res = await get(`/s/${r.slug}`)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("cache-control")).toBe("private, no-store")
    const body = await res.text()
    expect(body).toContain("<h1>Hello</h1>")
    expect(body).toContain("<em>fine</em>")
    expect(body).not.toContain("<script")
    expect(body).not.toContain("noindex")
    const unlisted = await create("markdown", { visibility: "unlisted" })
    const u = await get(`/s/${unlisted.slug}`)
    expect(u.status).toBe(200)
    expect(u.headers.get("x-robots-tag")).toBe("noindex, nofollow")
    expect(await u.text()).toContain('<meta name="robots" content="noindex,nofollow">')
  })

  it("answers 404 for private, deleted and unknown slugs", async () => {
    const hidden = await create("markdown", { visibility: "private" })
    const deleted = await create("markdown")
    expect((await get(`/s/${deleted.slug}`)).status).toBe(200)
    await app.run(
      Effect.flatMap(ResourceRepository, (repo) => repo.softDelete(tenantId, deleted.id, new Date()))
    )
    for (const slug of [
      hidden.slug,
      deleted.slug,
      "no-such-slug",
      "%00%2F..",
      "x".repeat(90),
      "UPPER-case"
    ]) {
      const res = await get(`/s/${slug}`)
      expect(res.status).toBe(404)
      expect(await res.text()).toContain("Page not found")
    }
  })

  it("shows a placeholder for a Notion mirror, a bio page's profile, and an empty gallery for a collection", async () => {
    const notion = await create("notion", { title: "A notion", description: "Soon" })
    const placeholder = await (await get(`/s/${notion.slug}`)).text()
    expect(placeholder).toContain("<h1>A notion</h1>")
    expect(placeholder).toContain('<meta name="description" content="Soon">')
    expect(placeholder).toContain("being copied from Notion")
    const bio = await create("bio", { title: "A bio" })
    const profile = await get(`/s/${bio.slug}`)
    expect(profile.status).toBe(200)
    const profileHtml = await profile.text()
    expect(profileHtml).toContain('<h1 class="name">Ada</h1>')
    expect(profileHtml).toContain("Engineer")
    const collection = await create("collection", { title: "A collection", description: "Soon" })
    const gallery = await (await get(`/s/${collection.slug}`)).text()
    expect(gallery).toContain('<h1 class="page-title">A collection</h1>')
    expect(gallery).toContain("This collection is empty.")
  })
})

describe("password-protected resources", () => {
  it("shows the form, unlocks with a cookie scoped to the resource, and refuses a wrong password", async () => {
    const hash = await app.run(Effect.flatMap(PasswordHasher, (h) => h.hash("correct horse")))
    const page = await create("markdown", {
      title: "Secret title",
      passwordHash: hash,
      data: { body: "hidden text" }
    })
    const other = await create("markdown", { passwordHash: hash, data: { body: "other text" } })
    const form = await get(`/s/${page.slug}`)
    expect(form.status).toBe(200)
    const formBody = await form.text()
    expect(formBody).toContain('name="password"')
    expect(formBody).not.toContain("Secret title")
    expect(formBody).not.toContain("hidden text")

    const post = (slug: string, password: string, headers: Record<string, string> = {}) =>
      fetch(`${app.origin}/s/${slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ password }).toString()
      })
    const wrong = await post(page.slug, "nope")
    expect(wrong.status).toBe(403)
    expect(await wrong.text()).toContain("That password is not right")
    expect(cookieOf(wrong, "svc_unlock")).toBeUndefined()

    const right = await post(page.slug, "correct horse")
    expect(right.status).toBe(303)
    expect(right.headers.get("location")).toBe(`/s/${page.slug}`)
    const setCookie = right.headers.getSetCookie().find((c) => c.startsWith("svc_unlock=")) ?? ""
    expect(setCookie).toContain(`; Path=/s/${page.slug};`)
    expect(setCookie).toContain("HttpOnly; SameSite=Lax")
    const unlock = cookieOf(right, "svc_unlock") ?? ""
    const opened = await get(`/s/${page.slug}`, { cookie: unlock })
    expect(await opened.text()).toContain("hidden text")
    // The cookie is this resource's only, and a forged one unlocks nothing.
    expect(await (await get(`/s/${other.slug}`, { cookie: unlock })).text()).not.toContain("other text")
    const forged = `${unlock.slice(0, -4)}AAAA`
    expect(await (await get(`/s/${page.slug}`, { cookie: forged })).text()).not.toContain("hidden text")
  })

  it("budgets attempts per client address and resource: the 11th in ten minutes is 429", async () => {
    const hash = await app.run(Effect.flatMap(PasswordHasher, (h) => h.hash("pw")))
    const r = await link({ passwordHash: hash })
    // The eleven attempts fall in one window (it once crossed 20:00:00 and the 11th was let in).
    await freshRateWindow(10_000, PASSWORD_ATTEMPT_WINDOW_MS)
    const attempt = (password: string) =>
      fetch(`${app.origin}/s/${r.slug}`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `password=${password}`
      })
    const statuses = await Promise.all(Array.from({ length: 10 }, () => attempt("wrong")))
    expect(statuses.map((s) => s.status)).toEqual(Array(10).fill(403))
    const limited = await attempt("pw")
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0)
    // Another resource has its own budget.
    const other = await link({ passwordHash: hash })
    const ok = await fetch(`${app.origin}/s/${other.slug}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "password=pw"
    })
    expect(ok.status).toBe(303)
    const unlocked = await get(`/s/${other.slug}`, { cookie: cookieOf(ok, "svc_unlock") ?? "" })
    expect(unlocked.status).toBe(302)
  })
})

describe(`views at shutdown [${realStorageName}]`, () => {
  it("writes every counted view when the app stops gracefully", async () => {
    const { storage, drop } = await openStorage(realStorageName)
    try {
      const first = await startApp({ storage })
      const owner = (await newWorkspaceKey(first, ["read"], "sharing")).workspaceId
      const r = resource(owner, "link", {
        createdAt: at("2026-04-01T10:00:00.000Z"),
        data: { ...resource(owner, "link").data, redirectRules: null, testVariants: null, fallbackUrl: null }
      })
      await first.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
      const responses = await Promise.all(
        Array.from({ length: 40 }, () => fetch(`${first.origin}/s/${r.slug}`, { redirect: "manual" }))
      )
      expect(responses.every((x) => x.status === 302)).toBe(true)
      await first.close()
      const second = await startApp({ storage })
      try {
        const stored = await second.run(Effect.flatMap(ResourceRepository, (repo) => repo.get(owner, r.id)))
        expect(Option.getOrThrow(stored).viewCount).toBe(40)
      } finally {
        await second.close()
      }
    } finally {
      await drop()
    }
  })
})
