// The webhook SSRF guard over generated spellings: every address of a special-purpose range (IANA's
// IPv4 and IPv6 registries), written dotted, hex-mapped, translated, compatible, through 6to4, NAT64
// or Teredo, in any case, zero-compressed or not, bracketed or not, is refused, as an address and
// inside an endpoint URL; global addresses are allowed; `allowLoopback` lets only 127/8 and ::1 by.
import { canonicalAddress, endpointUrlProblem, isForbiddenAddress } from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

/** IPv4 special-purpose blocks, written out here (not read from the code under test). */
const FORBIDDEN_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["255.255.255.255", 32]
]

/** IPv6 special-purpose blocks that carry no IPv4 address. */
const FORBIDDEN_V6: ReadonlyArray<readonly [string, number]> = [
  ["::1", 128],
  ["::", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["100::", 64],
  ["64:ff9b:1::", 48],
  ["2001:2::", 48],
  ["2001:10::", 28],
  ["2001:20::", 28],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["5f00::", 16]
]

const v4Number = (dotted: string) => dotted.split(".").reduce((n, o) => n * 256 + Number(o), 0)
const v4Dotted = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".")
const inV4 = (n: number, [base, bits]: readonly [string, number]) =>
  Math.floor(n / 2 ** (32 - bits)) === Math.floor(v4Number(base) / 2 ** (32 - bits))

const v6Parts = (text: string): Array<number> => {
  const [head = "", tail] = text.split("::")
  const h = head === "" ? [] : head.split(":").map((x) => Number.parseInt(x, 16))
  const t = tail === undefined || tail === "" ? [] : tail.split(":").map((x) => Number.parseInt(x, 16))
  return [...h, ...Array(8 - h.length - t.length).fill(0), ...t]
}

/** A 32-bit number in `range`, drawn across its host bits. */
const v4In = ([base, bits]: readonly [string, number]) =>
  fc.nat({ max: 2 ** (32 - bits) - 1 }).map((host) => v4Number(base) + host)
const forbiddenV4 = fc.constantFrom(...FORBIDDEN_V4).chain(v4In)
const globalV4 = fc
  .nat({ max: 2 ** 32 - 1 })
  .filter((n) => !FORBIDDEN_V4.some((r) => inV4(n, r)) && !inV4(n, ["192.31.196.0", 24]))
  .filter((n) => !inV4(n, ["192.52.193.0", 24]) && !inV4(n, ["192.175.48.0", 24]))

/** Eight 16-bit parts with the first `bits` of `base` kept and the rest drawn. */
const v6In = ([base, bits]: readonly [string, number]) =>
  fc.array(fc.nat({ max: 0xffff }), { minLength: 8, maxLength: 8 }).map((random) =>
    v6Parts(base).map((part, i) => {
      const kept = Math.max(0, Math.min(16, bits - i * 16))
      const mask = kept === 0 ? 0 : (0xffff << (16 - kept)) & 0xffff
      return (part & mask) | ((random[i] ?? 0) & ~mask & 0xffff)
    })
  )

interface Spelling {
  readonly compress: boolean
  readonly pad: boolean
  readonly upper: boolean
  readonly bracket: boolean
}
const spelling: fc.Arbitrary<Spelling> = fc.record({
  compress: fc.boolean(),
  pad: fc.boolean(),
  upper: fc.boolean(),
  bracket: fc.boolean()
})

/** Writes IPv6 `parts` (the last two as a dotted quad when `dotted`) the way `s` says. */
const write = (parts: ReadonlyArray<number>, s: Spelling, dotted = false): string => {
  const hex = (n: number) => (s.pad ? n.toString(16).padStart(4, "0") : n.toString(16))
  const words = dotted
    ? [...parts.slice(0, 6).map(hex), v4Dotted((parts[6] ?? 0) * 65536 + (parts[7] ?? 0))]
    : parts.map(hex)
  let text = words.join(":")
  if (s.compress) {
    // The longest run of zero words (at least two) becomes "::".
    const zero = (w: string) => /^0+$/.test(w)
    let best = { at: -1, length: 1 }
    for (let i = 0; i < words.length; i++) {
      let j = i
      while (j < words.length && zero(words[j] as string)) j++
      if (j - i > best.length) best = { at: i, length: j - i }
    }
    if (best.at >= 0)
      text = `${words.slice(0, best.at).join(":")}::${words.slice(best.at + best.length).join(":")}`
  }
  if (s.upper) text = text.toUpperCase()
  return s.bracket ? `[${text}]` : text
}

const hi = (n: number) => Math.floor(n / 65536)
const lo = (n: number) => n % 65536

/** Every way this suite writes the IPv4 address `n` inside IPv6 (each a route to `n`). */
const embeddings = (n: number) =>
  fc.oneof(
    fc.constant({ parts: [0, 0, 0, 0, 0, 0xffff, hi(n), lo(n)], dotted: true, how: "mapped dotted" }),
    fc.constant({ parts: [0, 0, 0, 0, 0, 0xffff, hi(n), lo(n)], dotted: false, how: "mapped hex" }),
    fc.constant({ parts: [0, 0, 0, 0, 0xffff, 0, hi(n), lo(n)], dotted: false, how: "translated" }),
    fc.constant({ parts: [0, 0, 0, 0, 0, 0, hi(n), lo(n)], dotted: true, how: "compatible dotted" }),
    fc.constant({ parts: [0, 0, 0, 0, 0, 0, hi(n), lo(n)], dotted: false, how: "compatible hex" }),
    fc.constant({ parts: [0x64, 0xff9b, 0, 0, 0, 0, hi(n), lo(n)], dotted: true, how: "NAT64 dotted" }),
    fc.constant({ parts: [0x64, 0xff9b, 0, 0, 0, 0, hi(n), lo(n)], dotted: false, how: "NAT64 hex" }),
    fc
      .tuple(fc.nat({ max: 0xffff }), fc.nat({ max: 0xffff }), fc.nat({ max: 0xffff }))
      .map(([subnet, i1, i2]) => ({
        parts: [0x2002, hi(n), lo(n), subnet, i1, i2, 0, 0],
        dotted: false,
        how: "6to4"
      })),
    fc
      .tuple(
        fc.nat({ max: 0xffff }),
        fc.nat({ max: 0xffff }),
        fc.nat({ max: 0xffff }),
        fc.nat({ max: 0xffff })
      )
      .map(([s1, s2, flags, port]) => ({
        parts: [0x2001, 0, s1, s2, flags, port, hi(n) ^ 0xffff, lo(n) ^ 0xffff],
        dotted: false,
        how: "Teredo"
      }))
  )

const isLoopbackV4 = (n: number) => inV4(n, ["127.0.0.0", 8])

describe("webhook addresses (property)", () => {
  it("refuses every address of an IPv4 special-purpose block, dotted", () => {
    fc.assert(fc.property(forbiddenV4, (n) => isForbiddenAddress(v4Dotted(n))))
  })

  it("refuses every such IPv4 address wrapped in IPv6, however written", () => {
    fc.assert(
      fc.property(
        forbiddenV4.chain((n) => fc.tuple(fc.constant(n), embeddings(n), spelling)),
        ([n, e, s]) => {
          const text = write(e.parts, s, e.dotted)
          // The spelling is a valid address and names n (so a refusal is not of bad text); only
          // ::0.0.0.0 and ::0.0.0.1 are IPv6's own :: and ::1.
          if (!(e.how.startsWith("compatible") && n <= 1))
            expect(canonicalAddress(text), text).toMatchObject({ kind: "ipv4", address: v4Dotted(n) })
          expect(isForbiddenAddress(text), `${e.how} ${text} (${v4Dotted(n)})`).toBe(true)
          // The loopback allowance is for the local receiver only: never another block, and never
          // 127.x behind a translator's prefix.
          const ipv6Loopback = e.parts.slice(0, 7).every((p) => p === 0) && e.parts[7] === 1
          const letThrough = (isLoopbackV4(n) && e.how.startsWith("mapped")) || ipv6Loopback
          expect(isForbiddenAddress(text, true), `${e.how} ${text} with loopback`).toBe(!letThrough)
        }
      ),
      { numRuns: 2000 }
    )
  })

  it("refuses every address of an IPv6 special-purpose block, however written", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FORBIDDEN_V6).chain((r) => fc.tuple(fc.constant(r), v6In(r), spelling)),
        ([range, parts, s]) => {
          const text = write(parts, s)
          expect(canonicalAddress(text), text).toBeDefined()
          expect(isForbiddenAddress(text), `${text} in ${range[0]}/${range[1]}`).toBe(true)
          const loopback = parts.slice(0, 7).every((p) => p === 0) && parts[7] === 1
          expect(isForbiddenAddress(text, true), `${text} with loopback`).toBe(!loopback)
        }
      ),
      { numRuns: 1000 }
    )
  })

  it("refuses endpoint URLs naming such addresses, also in WHATWG's other IPv4 forms", () => {
    fc.assert(
      fc.property(
        forbiddenV4.chain((n) =>
          fc.tuple(fc.constant(n), embeddings(n), spelling, fc.integer({ min: 1, max: 65535 }))
        ),
        ([n, e, s, port]) => {
          const host = write(e.parts, { ...s, bracket: true }, e.dotted)
          expect(endpointUrlProblem(`https://${host}:${port}/hook`), host).toBe(
            "must not point at a private or local address"
          )
          for (const v4 of [
            v4Dotted(n),
            String(n),
            `0x${n.toString(16)}`,
            `0${(n >>> 24).toString(8)}.${n & 0xffffff}`
          ])
            expect(endpointUrlProblem(`https://${v4}:${port}/`), v4).toBe(
              "must not point at a private or local address"
            )
        }
      ),
      { numRuns: 500 }
    )
  })

  it("allows global addresses, plain and mapped", () => {
    fc.assert(
      fc.property(globalV4, spelling, (n, s) => {
        expect(isForbiddenAddress(v4Dotted(n)), v4Dotted(n)).toBe(false)
        const mapped = write([0, 0, 0, 0, 0, 0xffff, hi(n), lo(n)], s)
        expect(isForbiddenAddress(mapped), mapped).toBe(false)
        expect(canonicalAddress(mapped)?.address).toBe(v4Dotted(n))
      })
    )
    for (const a of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700::1111", "2a00:1450:4001:82b::200e"])
      expect(isForbiddenAddress(a), a).toBe(false)
    expect(endpointUrlProblem("https://[2606:4700::1111]/in")).toBeUndefined()
    expect(endpointUrlProblem("https://8.8.8.8:8443/in")).toBeUndefined()
  })
})

describe("webhook addresses: the audit's cases", () => {
  it.each([
    "https://[::ffff:7f00:1]:5432/",
    "https://[0:0:0:0:0:ffff:127.0.0.1]/",
    "https://[::ffff:a9fe:a9fe]/latest/meta-data",
    "https://[::ffff:a00:1]/",
    "https://[::ffff:c0a8:1]/",
    "https://[::127.0.0.1]/",
    "https://[2002:7f00:1::]/",
    "https://[64:ff9b::7f00:1]/",
    "https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/",
    "https://192.88.99.1/",
    "https://0x7f.1/",
    "https://2130706433/",
    "https://sub.localhost/"
  ])("refuses %s", (url) => {
    expect(endpointUrlProblem(url)).toBeDefined()
  })

  it("lets loopback through with allowLoopback, and no mapped private address", () => {
    expect(endpointUrlProblem("https://127.0.0.1:8443/", true)).toBeUndefined()
    expect(endpointUrlProblem("https://[::ffff:7f00:1]:8443/", true)).toBeUndefined()
    expect(endpointUrlProblem("https://[0:0:0:0:0:0:0:1]/", true)).toBeUndefined()
    expect(endpointUrlProblem("https://[::ffff:c0a8:1]/", true)).toBeDefined()
    expect(endpointUrlProblem("https://[::ffff:a9fe:a9fe]/", true)).toBeDefined()
    expect(endpointUrlProblem("https://[2002:7f00:1::]/", true)).toBeDefined()
    expect(endpointUrlProblem("https://[::127.0.0.1]/", true)).toBeDefined()
  })
})
