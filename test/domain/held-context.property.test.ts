// provideHeld, what binds a use case's ports and the MCP tools' services: over generated fiber
// contexts and provided services it gives an effect exactly the services Effect.provideContext
// would, and restores the caller's afterwards; when the fiber already holds the services (the
// same instances) it keeps the fiber's own context object, which is the copy it exists to save.
import { provideHeld } from "@folio/domain"
import { Context, Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

type Shape = { readonly v: number }
const [A, B, C] = [
  Context.Service<Shape>("held/a"),
  Context.Service<Shape>("held/b"),
  Context.Service<Shape>("held/c")
]
const KEYS = [A, B, C, Context.Service<Shape>("held/d"), Context.Service<Shape>("held/e")]
// A few instances per key, so generated contexts share some and differ in others.
const ENTRIES = KEYS.flatMap((key) => [0, 1, 2].map((v) => ({ key, value: { v } })))

const contextArb = fc.array(fc.constantFrom(...ENTRIES), { maxLength: 12 }).map((adds) =>
  // Added one at a time, as a request's own services are, so overlays and rebases both occur.
  adds.reduce<Context.Context<never>>(
    (context, { key, value }) => Context.add(context, key, value) as Context.Context<never>,
    Context.empty()
  )
)

/** What the effect sees: each key's instance, or "none". */
const seen = Effect.map(Effect.context<never>(), (context) =>
  KEYS.map((key) => {
    const value = Context.getOrUndefined(context, key)
    return value === undefined ? "none" : value
  })
)

const observe = (
  fiber: Context.Context<never>,
  provide: (e: typeof seen) => Effect.Effect<ReadonlyArray<unknown>>
) =>
  Effect.runSync(
    Effect.provideContext(
      Effect.gen(function* () {
        const inside = yield* provide(seen)
        const after = yield* seen
        return { inside, after }
      }),
      fiber
    )
  )

describe("provideHeld", () => {
  it("gives an effect the services provideContext gives it, and restores the caller's after", () => {
    fc.assert(
      fc.property(contextArb, contextArb, (fiber, services) => {
        const held = observe(fiber, provideHeld(services))
        const merged = observe(fiber, (e) => Effect.provideContext(e, services))
        expect(held.inside).toEqual(merged.inside)
        for (const [i, value] of held.inside.entries()) expect(value).toBe(merged.inside[i])
        expect(held.after).toEqual(observe(fiber, (e) => e).inside)
      }),
      { numRuns: 500 }
    )
  })

  it("keeps the fiber's own context when it holds the services, and merges when one differs", () => {
    const [a0, b0, b1, c0] = [{ v: 0 }, { v: 0 }, { v: 1 }, { v: 0 }]
    const services = Context.make(A, a0).pipe(Context.add(B, b0))
    const holding = services.pipe(Context.add(C, c0))
    const sameObject = (
      fiber: Context.Context<never>,
      provide: (e: Effect.Effect<boolean>) => Effect.Effect<boolean>
    ) =>
      Effect.runSync(
        Effect.provideContext(
          Effect.flatMap(Effect.context<never>(), (outer) =>
            provide(Effect.map(Effect.context<never>(), (inner) => inner === outer))
          ),
          fiber
        )
      )
    expect(sameObject(holding as Context.Context<never>, provideHeld(services))).toBe(true)
    // The fiber's b is another instance of the same service: provided, so a new context.
    const other = holding.pipe(Context.add(B, b1))
    expect(sameObject(other as Context.Context<never>, provideHeld(services))).toBe(false)
    // Compared on a alone, b's difference is the fiber's own to keep...
    expect(sameObject(other as Context.Context<never>, provideHeld(services, [A]))).toBe(true)
    // ...and a fiber without a gets everything provided, b included.
    const without = Context.make(C, c0) as Context.Context<never>
    const inside = Effect.runSync(Effect.provideContext(provideHeld(services, [A])(seen), without))
    for (const [i, value] of inside.slice(0, 3).entries()) expect(value).toBe([a0, b0, c0][i])
  })
})
