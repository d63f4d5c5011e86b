// The fast redirect's Set-Cookie values (setCookieValues, which keeps each path's serialized
// attributes) are the bytes effect's own serializer writes for the same cookie, for any value,
// path and settings, and stay so when a path's cookie changes its settings between calls.
import { type PublicCookie, resourcePublicPath, SEEN_COOKIE, VISITOR_COOKIE } from "@folio/domain"
import { Duration } from "effect"
import { Cookies } from "effect/http"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { UNLOCK_COOKIE } from "../../packages/adapters-http/src/sharing/public/password.js"
import { setCookieValues } from "../../packages/adapters-http/src/sharing/public/public-visit.js"

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
