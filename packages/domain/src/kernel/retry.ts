// Optimistic writes lose races: a compare-and-set that finds the row changed, a random slug that is
// taken. The writer reads again and tries again a few times, then gives up with a conflict. One
// combinator for every such loop, with no timers or schedules (the domain keeps none).
import { Effect, Option } from "effect"

/**
 * Runs `attempt(n)` for n = 0, 1, ... until it yields a value, at most `times` tries; `None` means
 * "lost a race, read again and retry". After the last lost try it fails with `exhausted()`.
 * Failures of an attempt end the loop at once.
 */
export const retryOnStale = <A, E, R, X>(
  times: number,
  attempt: (n: number) => Effect.Effect<Option.Option<A>, E, R>,
  exhausted: () => X
): Effect.Effect<A, E | X, R> => {
  const loop = (n: number): Effect.Effect<A, E | X, R> =>
    n >= times
      ? Effect.fail(exhausted())
      : Effect.flatMap(
          attempt(n),
          Option.match({ onNone: () => loop(n + 1), onSome: (a) => Effect.succeed(a) })
        )
  return loop(0)
}

/**
 * Rounds of a read-modify-write that lost its compare-and-set. A lost round means another write of
 * the row landed, so this is how many writers may race one row at once before one is told "changed":
 * far above what any client does. A write the client did not make conditional must not fail on
 * someone else's version, and a precondition that still holds after the race must not either.
 */
export const LOST_RACE_TRIES = 64
