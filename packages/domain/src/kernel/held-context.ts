// Providing services the running fiber usually holds already. A use case's ports and the MCP
// tools' services are the app's own, read from its context when the app was built, and a request
// runs with those same instances: `Effect.provideContext` would still merge them in, copying the
// fiber's whole context on every call (twice when the request has added its own services, which
// the copy flattens first): ~45 µs and ~70 KB a call with the app's ~100 services, measured. Here
// the fiber's context is kept as it is when it already holds the services, the same instances,
// and merged exactly as `provideContext` does when it does not (a call from outside a request).
import { Context, Effect } from "effect"

/**
 * `Effect.provideContext(effect, services)`, skipping the merge when the running fiber already
 * holds each service of `services` (or, given `compared`, each of those: the ones that matter,
 * where `services` also carries what the fiber has its own of, such as its scope), by identity.
 */
export const provideHeld = <S>(
  services: Context.Context<S>,
  compared?: ReadonlyArray<Context.Service.Any>
): (<A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.Effect<A, E, Exclude<R, S>>) => {
  const held: ReadonlyArray<readonly [Context.Service.Any, unknown]> =
    compared === undefined
      ? Array.from(services.mapUnsafe, ([key, value]) => [Context.Service<unknown>(key), value] as const)
      : compared.map((service) => [service, Context.getOrUndefined(services, service)] as const)
  // What the effect needs (R) is what it is given (R without S) and S, as provideContext types it.
  const update = <R>(current: Context.Context<Exclude<R, S>>): Context.Context<R> => {
    for (const [service, value] of held) {
      if (Context.getOrUndefined(current, service) !== value)
        return Context.merge(current, services) as Context.Context<R>
    }
    return current as Context.Context<R>
  }
  return <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.updateContext(effect, (current: Context.Context<Exclude<R, S>>) => update<R>(current))
}
