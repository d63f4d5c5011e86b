// Randomized presentation: every order is a permutation of the definition's, pinned choices stay
// last, reverse reverses, and latin squares rotate so each item leads equally often.
import { hasRandomization, presentationOrder } from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blk, definitionOf } from "../support/builders.js"

const choices = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, label: `C${i}` }))
const decode = definitionOf

describe("presentation order", () => {
  it("shuffles choices into a permutation that keeps the pinned ones last", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 0, max: 5 }),
        fc.array(fc.nat(), { minLength: 40, maxLength: 40 }),
        (n, pin, seeds) => {
          const def = decode({
            schemaVersion: 1,
            blocks: [
              {
                id: blk(1),
                type: "multiple_choice",
                label: "Q",
                options: { choices: choices(n), randomize: { mode: "shuffle", pinLast: pin } }
              }
            ]
          })
          let k = 0
          const order =
            presentationOrder(def, (m) => (seeds[k++ % seeds.length] ?? 0) % m, 0).choices[blk(1)] ?? []
          const ids = choices(n).map((c) => c.id)
          expect([...order].sort()).toEqual([...ids].sort())
          const pinned = Math.min(pin, n)
          expect(order.slice(n - pinned)).toEqual(ids.slice(n - pinned))
        }
      ),
      { numRuns: 200 }
    )
  })

  it("reverses, rotates latin squares by assignment number, and reports whether anything is random", () => {
    const def = decode({
      schemaVersion: 1,
      blocks: [
        {
          id: blk(1),
          type: "ranking",
          label: "R",
          options: { choices: choices(4), randomize: { mode: "reverse", pinLast: 1 } }
        },
        { id: blk(2), type: "short_text", label: "A" },
        { id: blk(3), type: "short_text", label: "B" },
        { id: blk(4), type: "short_text", label: "C" }
      ],
      randomGroups: [{ id: "rng_square", blockIds: [blk(2), blk(3), blk(4)], mode: "latin_square" }]
    })
    const at = (n: number) => presentationOrder(def, () => 0, n)
    expect(at(0).choices[blk(1)]).toEqual(["c2", "c1", "c0", "c3"])
    const leads = [0, 1, 2, 3, 4, 5].map((n) => at(n).groups.rng_square?.[0])
    expect(leads).toEqual([blk(2), blk(3), blk(4), blk(2), blk(3), blk(4)])
    expect(hasRandomization(def)).toBe(true)
    expect(
      hasRandomization(decode({ schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Q" }] }))
    ).toBe(false)
  })
})
