// The public-visit decision (decidePublicVisit) over generated resources, requests, cookies and
// instants: a fallback is never a view, private is always not found, an exhausted `max_views` never
// serves a new visitor; and the node:http fast path and the routes answer the same generated
// requests the same, over real HTTP, on an app with the fast path and one without it.
import { unlockSecretOf, unlockToken } from "@folio/adapters-http"
import {
  decidePublicVisit,
  type PublicRequestFacts,
  type PublicVisitCookies,
  type ResourceRecord,
  makeResourceRecord,
  ResourceRepository,
  type ResourceType,
  resourceUnavailability,
  SEEN_COOKIE,
  VISITOR_COOKIE
} from "@folio/domain"
import { Effect } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { resource } from "../storage/fixtures.js"

const HOUR = 60 * 60_000
const NOW = new Date("2026-06-01T12:00:00.000Z")

const USER_AGENTS = [
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36",
  "Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)",
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  ""
] as const

const TYPES: ReadonlyArray<ResourceType> = [
  "link",
  "markdown",
  "collection",
  "bio",
  "file",
  "image",
  "artifact",
  "notion"
]

/** A window edge relative to now: none, past or future. */
const edge = fc.constantFrom<number | null>(null, -HOUR, HOUR)

/** The fields every type shares that the decision reads, over a type's example data. */
const resourceArb = (types: ReadonlyArray<ResourceType> = TYPES) =>
  fc
    .record({
      type: fc.constantFrom(...types),
      visibility: fc.constantFrom("public" as const, "unlisted" as const, "private" as const),
      password: fc.boolean(),
      startsAt: edge,
      expiresAt: edge,
      maxViews: fc.constantFrom<number | null>(null, 0, 1, 3),
      viewCount: fc.nat({ max: 4 }),
      fallback: fc.boolean(),
      og: fc.boolean(),
      webhookClicks: fc.boolean()
    })
    .map((f): ResourceRecord => {
      const r = resource("tenant-1", f.type, {
        visibility: f.visibility,
        passwordHash: f.password ? "scrypt$stored-hash" : null,
        startsAt: f.startsAt === null ? null : new Date(NOW.getTime() + f.startsAt),
        expiresAt: f.expiresAt === null ? null : new Date(NOW.getTime() + f.expiresAt),
        maxViews: f.maxViews,
        viewCount: f.viewCount
      })
      return r.type === "link"
        ? {
            ...r,
            data: {
              ...r.data,
              redirectRules: [{ conditions: { device: ["mobile"] }, target_url: "https://m.example.com/" }],
              fallbackUrl: f.fallback ? "https://example.com/gone" : null,
              webhookClicks: f.webhookClicks,
              ...(f.og ? {} : { ogTitle: null, ogDescription: null, ogImageUrl: null })
            }
          }
        : r
    })

const factsArb: fc.Arbitrary<PublicRequestFacts> = fc
  .record({
    method: fc.constantFrom("GET", "HEAD"),
    userAgent: fc.constantFrom(...USER_AGENTS, undefined),
    device: fc.constantFrom("mobile" as const, "desktop" as const, "bot" as const),
    query: fc.array(fc.tuple(fc.constantFrom("utm_source", "ref"), fc.string({ maxLength: 5 })), {
      maxLength: 2
    }),
    unlocked: fc.boolean(),
    secureCookies: fc.boolean()
  })
  .map((f) => ({
    method: f.method,
    userAgent: f.userAgent,
    visit: () => ({ device: f.device, os: "other" as const, languages: [], query: f.query }),
    unlocked: f.unlocked,
    secureCookies: f.secureCookies,
    newVisitorId: () => "00000000-0000-4000-8000-000000000000"
  }))

/** Cookies of a returning visit (`seen` the resource's own id) or of someone else's. */
const cookiesArb = (r: ResourceRecord): fc.Arbitrary<PublicVisitCookies> =>
  fc.record({
    visitor: fc.constantFrom(undefined, "visitor-0123456789abcdef", "bad id"),
    seen: fc.constantFrom(undefined, r.id, "another-resource")
  })

const caseArb = (types?: ReadonlyArray<ResourceType>) =>
  resourceArb(types).chain((r) =>
    fc.record({
      r: fc.constant(r),
      facts: factsArb,
      cookies: cookiesArb(r),
      pending: fc.nat({ max: 2 }),
      suspended: fc.boolean()
    })
  )

type Case = typeof caseArb extends (...args: never) => fc.Arbitrary<infer C> ? C : never

const decide = (c: Case) =>
  decidePublicVisit(
    { record: c.r, views: c.r.viewCount + c.pending, ownerSuspended: c.suspended },
    c.facts,
    c.cookies,
    NOW
  )

describe("decidePublicVisit", () => {
  it("never counts a link's fallback as a view", () => {
    fc.assert(
      fc.property(caseArb(["link"]), (c) => {
        const decided = decide(c)
        const unavailable = resourceUnavailability(c.r, c.r.viewCount + c.pending, NOW) !== undefined
        if (
          decided.answer._tag === "LinkRedirect" &&
          decided.answer.location.startsWith("https://example.com/gone")
        )
          expect(decided.countsView).toBe(false)
        if (unavailable) {
          expect(decided.countsView).toBe(false)
          expect(decided.visit).toBeUndefined()
          expect(decided.click).toBeUndefined()
          expect(decided.cookies.map((k) => k.name)).not.toContain(SEEN_COOKIE)
        }
      }),
      { numRuns: 500 }
    )
  })

  it("answers not found for anything private (or of a suspended account), setting and recording nothing", () => {
    fc.assert(
      fc.property(caseArb(), (c) => {
        const decided = decide(c)
        if (c.r.visibility === "private" || c.suspended) {
          expect(decided.answer).toEqual({ _tag: "NotFound" })
          expect(decided.cookies).toEqual([])
          expect(decided.countsView).toBe(false)
          expect(decided.click).toBeUndefined()
        } else {
          expect(decided.answer._tag).not.toBe("NotFound")
        }
      }),
      { numRuns: 500 }
    )
  })

  it("never serves a new visitor once max_views is used up: the state page or the link's fallback", () => {
    fc.assert(
      fc.property(
        caseArb().filter(
          (c) =>
            c.r.maxViews !== null && c.r.viewCount + c.pending >= c.r.maxViews && c.cookies.seen !== c.r.id
        ),
        (c) => {
          const decided = decide(c)
          expect(decided.countsView).toBe(false)
          const answer = decided.answer
          switch (answer._tag) {
            case "NotFound":
              expect(c.r.visibility === "private" || c.suspended).toBe(true)
              break
            case "StatePage":
              expect(["not_started", "expired", "view_limit_reached"]).toContain(answer.reason)
              break
            case "LinkRedirect":
              expect(answer.location.startsWith("https://example.com/gone")).toBe(true)
              break
            case "LinkPreview":
              expect(answer.destination.startsWith("https://example.com/gone")).toBe(true)
              break
            default:
              expect.fail(`served ${answer._tag} past max_views`)
          }
        }
      ),
      { numRuns: 500 }
    )
  })
})

// The fast path and the routes --------------------------------------------------------------------

describe("the node:http fast path and the routes", () => {
  let fast: RunningApp
  let routes: RunningApp
  const tenants = new Map<RunningApp, string>()

  beforeAll(async () => {
    fast = await startApp()
    routes = await startApp({ fastRedirect: false })
    for (const app of [fast, routes])
      tenants.set(app, (await newWorkspaceKey(app, ["read"], "sharing")).workspaceId)
  })
  afterAll(async () => {
    await fast?.close()
    await routes?.close()
  })

  /** What a visitor sees of an answer: the app's own origin written as ORIGIN, a minted id as MINTED. */
  const seen = async (app: RunningApp, response: Response, sentVisitor: string | undefined) => {
    const minted = (value: string) =>
      sentVisitor === undefined || !value.startsWith(`${VISITOR_COOKIE}=${sentVisitor};`)
        ? value.replace(/^svc_v=[^;]+/, "svc_v=MINTED")
        : value
    return {
      status: response.status,
      location: response.headers.get("location"),
      cacheControl: response.headers.get("cache-control"),
      robots: response.headers.get("x-robots-tag"),
      contentType: response.headers.get("content-type"),
      requestId: response.headers.get("x-request-id") !== null,
      cookies: response.headers.getSetCookie().map(minted).sort(),
      body: (await response.text()).replaceAll(app.origin, "ORIGIN")
    }
  }

  const requestArb = fc.record({
    userAgent: fc.constantFrom(...USER_AGENTS),
    language: fc.constantFrom(undefined, "de-AT,de;q=0.9", "en"),
    country: fc.constantFrom(undefined, "DE", "XX"),
    query: fc.constantFrom("", "?utm_source=x", "?ref=a&ref=b"),
    visitor: fc.constantFrom<string | undefined>(undefined, "visitor-0123456789abcdef", "bad id"),
    seenMark: fc.boolean(),
    unlock: fc.boolean()
  })

  it("give the same answer to the same request", async () => {
    let viaFastPath = 0
    let routesLikeFastPath = 0
    await fc.assert(
      fc.asyncProperty(resourceArb(["link"]), requestArb, async (generated, q) => {
        // A sticky variant follows the visitor: a minted id would differ between the two apps.
        const known = q.visitor === "visitor-0123456789abcdef"
        const answers = []
        for (const app of [fast, routes]) {
          const tenantId = tenants.get(app) ?? ""
          const r = makeResourceRecord(
            {
              ...generated,
              tenantId,
              createdAt: new Date(),
              updatedAt: new Date(),
              // The windows around the real clock: both apps read it.
              startsAt:
                generated.startsAt === null
                  ? null
                  : new Date(Date.now() + (generated.startsAt < NOW ? -HOUR : HOUR)),
              expiresAt:
                generated.expiresAt === null
                  ? null
                  : new Date(Date.now() + (generated.expiresAt < NOW ? -HOUR : HOUR))
            },
            generated.type === "link" && !known
              ? { type: "link", data: { ...generated.data, testVariants: [] } }
              : generated
          )
          await app.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
          const cookie = [
            q.visitor === undefined ? undefined : `${VISITOR_COOKIE}=${q.visitor}`,
            q.seenMark ? `${SEEN_COOKIE}=${r.id}` : undefined,
            q.unlock && r.passwordHash !== null
              ? `svc_unlock=${unlockToken(
                  unlockSecretOf("test-signing-secret-0123456789abcdef"),
                  r.id,
                  r.passwordHash,
                  Math.floor(Date.now() / 1000)
                )}`
              : undefined
          ]
            .filter((c) => c !== undefined)
            .join("; ")
          const headers: Record<string, string> = {
            "user-agent": q.userAgent,
            ...(q.language === undefined ? {} : { "accept-language": q.language }),
            ...(q.country === undefined ? {} : { "cf-ipcountry": q.country }),
            ...(cookie === "" ? {} : { cookie })
          }
          const url = `${app.origin}/s/${r.slug}${q.query}`
          // A HEAD (no view, never the fast path's) reads the resource, so the GET finds it warm.
          await (await fetch(url, { method: "HEAD", redirect: "manual", headers })).arrayBuffer()
          const response = await fetch(url, { redirect: "manual", headers })
          // The fast path writes its empty 302 with a length; effect's server sends it chunked.
          if (response.headers.get("content-length") === "0") {
            if (app === fast) viaFastPath++
            else routesLikeFastPath++
          }
          answers.push(await seen(app, response, q.visitor))
        }
        expect(answers[0]).toEqual(answers[1])
      }),
      { numRuns: 80 }
    )
    // The generated requests did reach the fast path, not only the routes.
    expect(routesLikeFastPath).toBe(0)
    expect(viaFastPath).toBeGreaterThan(10)
  }, 120_000)
})
