// What the fast redirect writes per request without effect's or node's helpers: its Set-Cookie
// values (setCookieValues, which keeps each path's serialized attributes) are the bytes effect's
// own serializer writes for the same cookie, for any value, path and settings, and stay so when a
// path's cookie changes its settings between calls; new visitor ids and request ids, sliced from
// pools of random bytes, are well-formed and distinct.
import { type PublicCookie, resourcePublicPath, SEEN_COOKIE, VISITOR_COOKIE } from "@folio/domain"
import { Duration } from "effect"
import { Cookies } from "effect/http"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { newRequestId, requestIdOf } from "../../packages/adapters-http/src/shared/request-guard.js"
import { UNLOCK_COOKIE } from "../../packages/adapters-http/src/sharing/public/password.js"
import {
  newVisitorId,
  setCookieValues
} from "../../packages/adapters-http/src/sharing/public/public-visit.js"

const cookie = fc.record({
  name: fc.constantFrom(VISITOR_COOKIE, SEEN_COOKIE, UNLOCK_COOKIE),
  // Any text a value may hold (no lone surrogates: neither serializer can encode them).
  value: fc.string({ unit: "grapheme", maxLength: 40 }),
  maxAgeSeconds: fc.oneof(fc.constantFrom(0, 31_536_000), fc.integer({ min: 1, max: 400_000_000 })),
  path: fc.constantFrom("a", "b", "x-y").map(resourcePublicPath),
  secure: fc.boolean()
})

const effectBytes = (c: PublicCookie) =>
  Cookies.serializeCookie(
    Cookies.makeCookieUnsafe(c.name, c.value, {
      maxAge: Duration.seconds(c.maxAgeSeconds),
      path: c.path,
      httpOnly: true,
      secure: c.secure,
      sameSite: "lax"
    })
  )

describe("setCookieValues", () => {
  it("writes what effect writes, call after call, as settings change", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cookie, { maxLength: 3 }), { maxLength: 20 }), (calls) => {
        for (const cookies of calls) expect(setCookieValues(cookies)).toEqual(cookies.map(effectBytes))
      }),
      { numRuns: 200 }
    )
  })
})

describe("newVisitorId", () => {
  it("gives distinct ids the visitor cookie takes, across refills of its random pool", () => {
    // 10,000 ids: two refills of the pool (~3,970 ids each).
    const ids = Array.from({ length: 10_000 }, newVisitorId)
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/)
    expect(new Set(ids).size).toBe(ids.length)
    // Every character of the alphabet turns up (the bytes are random, not a counter's).
    expect(new Set(ids.join("")).size).toBe(64)
  })
})

describe("newRequestId", () => {
  it("gives distinct version 4 UUIDs across refills of its random pool", () => {
    // 10,000 ids: two refills of the pool (4,096 ids each).
    const ids = Array.from({ length: 10_000 }, newRequestId)
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(ids).size).toBe(ids.length)
    // Each variant digit turns up about a quarter of the time (the digit is drawn, not fixed).
    const variants = new Map<string, number>()
    for (const id of ids) variants.set(id.charAt(19), (variants.get(id.charAt(19)) ?? 0) + 1)
    for (const digit of "89ab") expect(variants.get(digit) ?? 0).toBeGreaterThan(2_000)
  })

  it("is what a request without a usable X-Request-Id gets", () => {
    expect(requestIdOf("client-chosen-id")).toBe("client-chosen-id")
    expect(requestIdOf(undefined)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    )
    expect(requestIdOf("bad id with spaces")).not.toBe("bad id with spaces")
  })
})
