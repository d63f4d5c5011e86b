// The rules every shared resource follows: slugs, random slugs, labels, title sort keys and ETags.
import {
  compareCodePoints,
  IdGen,
  isResourceLabel,
  isResourceSlug,
  normalizeLabels,
  RANDOM_SLUG_ALPHABET,
  randomResourceSlug,
  ResourceLabels,
  resourceEtag,
  slugFromBytes,
  titleSortKey
} from "@folio/domain"
import { Effect, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("resource slugs", () => {
  it.each(["abc", "a-b_c", "x".repeat(64), "2026-launch", "___"])("accepts %s", (slug) => {
    expect(isResourceSlug(slug)).toBe(true)
  })

  it.each(["ab", "x".repeat(65), "Abc", "a b", "a.b", "ünï", "a/b", ""])("refuses %j", (slug) => {
    expect(isResourceSlug(slug)).toBe(false)
  })

  it("makes 8-character slugs of an unambiguous 32-letter alphabet, every letter equally likely", () => {
    expect(new Set(RANDOM_SLUG_ALPHABET).size).toBe(32)
    expect(RANDOM_SLUG_ALPHABET).not.toMatch(/[01lo]/)
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 8 }), (bytes) => {
        const slug = slugFromBytes(bytes)
        expect(slug).toHaveLength(8)
        expect(isResourceSlug(slug)).toBe(true)
      })
    )
    // Each byte value maps to one letter and each letter has exactly 8 of the 256 byte values.
    const counts = new Map<string, number>()
    for (let b = 0; b < 256; b++) {
      const letter = slugFromBytes(new Uint8Array(8).fill(b))[0] ?? ""
      counts.set(letter, (counts.get(letter) ?? 0) + 1)
    }
    expect([...counts.values()]).toEqual(Array.from({ length: 32 }, () => 8))
  })

  it("takes its randomness from the IdGen port", () => {
    const slug = Effect.runSync(
      randomResourceSlug.pipe(
        Effect.provideService(IdGen, {
          uuid: Effect.succeed(""),
          uuidV7: Effect.succeed(""),
          randomBytes: (n) => Effect.succeed(Uint8Array.from({ length: n }, (_, i) => i))
        })
      )
    )
    expect(slug).toBe("abcdefgh")
  })
})

describe("labels", () => {
  it("allows up to 20 labels of lowercase letters, digits, hyphens and underscores", () => {
    const decode = Schema.decodeUnknownExit(ResourceLabels)
    expect(decode(Array.from({ length: 20 }, (_, i) => `l-${i}`))._tag).toBe("Success")
    expect(decode(Array.from({ length: 21 }, (_, i) => `l-${i}`))._tag).toBe("Failure")
    expect(decode(["Launch"])._tag).toBe("Failure")
    expect(decode([""])._tag).toBe("Failure")
    expect(isResourceLabel("q2_2026")).toBe(true)
    expect(isResourceLabel("a".repeat(65))).toBe(false)
  })

  it("drops duplicates and keeps the first order", () => {
    expect(normalizeLabels(["b", "a", "b", "c", "a"])).toEqual(["b", "a", "c"])
  })
})

describe("title sort keys", () => {
  it("fold case and width, keep 40 code points, and sort untitled first", () => {
    expect(titleSortKey("Apple")).toBe(titleSortKey("apple"))
    expect(titleSortKey("ＡＰＰＬＥ")).toBe("apple")
    expect(titleSortKey(null)).toBe("")
    expect(Array.from(titleSortKey("😀".repeat(60)))).toHaveLength(40)
  })

  it("compare by code point, as the C collation orders UTF-8", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        const bytes = (s: string) => Array.from(new TextEncoder().encode(s))
        const x = bytes(a)
        const y = bytes(b)
        let expected = 0
        for (let i = 0; i < Math.min(x.length, y.length) && expected === 0; i++)
          expected = Math.sign((x[i] ?? 0) - (y[i] ?? 0))
        if (expected === 0) expected = Math.sign(x.length - y.length)
        expect(compareCodePoints(a, b)).toBe(expected)
      })
    )
    // UTF-16 order would put the emoji (a surrogate pair) before U+FF5E.
    expect(compareCodePoints("😀", "～")).toBe(1)
  })
})

describe("resource ETags", () => {
  it("change with every write and differ between resources at one row version", () => {
    const id = "0190a000-0000-7000-8000-000000000001"
    const other = "0190a000-0000-7000-8000-000000000002"
    expect(resourceEtag({ id, rowVersion: 1 })).toBe(resourceEtag({ id, rowVersion: 1 }))
    expect(resourceEtag({ id, rowVersion: 1 })).not.toBe(resourceEtag({ id, rowVersion: 2 }))
    expect(resourceEtag({ id, rowVersion: 1 })).not.toBe(resourceEtag({ id: other, rowVersion: 1 }))
    expect(resourceEtag({ id, rowVersion: 1 })).toMatch(/^[0-9a-f]{32}$/)
  })
})
