// retryOnStale, the one loop behind every optimistic write: it tries until an attempt wins, at most
// the given number of times, stops at once on a failure, and reports exhaustion with its own error.
import { retryOnStale } from "@folio/domain"
import { Effect, Result, Option } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runSync(Effect.result(effect))

describe("retryOnStale", () => {
  it("returns the first win and tries exactly as often as it lost before it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 12 }), (times, losses) => {
        const seen: Array<number> = []
        const result = run(
          retryOnStale(
            times,
            (n) =>
              Effect.sync(() => {
                seen.push(n)
                return n < losses ? Option.none() : Option.some(`won at ${n}`)
              }),
            () => "exhausted" as const
          )
        )
        if (losses < times) {
          expect(result).toEqual(Result.succeed(`won at ${losses}`))
          expect(seen).toEqual(Array.from({ length: losses + 1 }, (_, i) => i))
        } else {
          expect(result).toEqual(Result.fail("exhausted"))
          expect(seen).toEqual(Array.from({ length: times }, (_, i) => i))
        }
      })
    )
  })

  it("stops at the first failing attempt without trying again", () => {
    let tries = 0
    const result = run(
      retryOnStale(
        5,
        () =>
          Effect.suspend(() =>
            ++tries === 2 ? Effect.fail("boom" as const) : Effect.succeed(Option.none())
          ),
        () => "exhausted" as const
      )
    )
    expect(result).toEqual(Result.fail("boom"))
    expect(tries).toBe(2)
  })
})
