// Use cases as Context services: a service's Live layer reads its ports once and binds them into
// every use case, so a caller needs only what varies per request (the Principal) and a test can
// build the same service over fake ports.
import { Context, Effect } from "effect"
import { provideHeld } from "./held-context.js"

/** A use case: any function returning an Effect (its requirements are ports and the Principal). */
export type UseCase = (...args: never) => Effect.Effect<unknown, unknown, unknown>

/** `run` with the ports `P` already provided: it still needs what is left (e.g. the Principal). */
export type BoundUseCase<F, P> = F extends (...args: infer A) => Effect.Effect<infer X, infer E, infer R>
  ? (...args: A) => Effect.Effect<X, E, Exclude<R, P>>
  : never

/** The shape of a use-case service: each use case of `T` with the ports `P` bound. */
export type BoundUseCases<T, P> = { readonly [K in keyof T]: BoundUseCase<T[K], P> }

/** Binds `ports` into each use case of `useCases` (what a service's Live layer builds). */
export const bindPorts = <const T extends Record<string, UseCase>, P>(
  useCases: T,
  ports: Context.Context<P>
): BoundUseCases<T, P> => {
  const provide = provideHeld(ports)
  return Object.fromEntries(
    Object.entries(useCases).map(([name, run]) => [name, (...args: never) => provide(run(...args))])
  ) as BoundUseCases<T, P>
}

/**
 * What a service's Live layer builds: reads `ports` from context once and binds them into each use
 * case. Only those ports are bound, so what a request provides (the Principal, the definition
 * decoder) still comes from the request.
 */
export const bindPortsFromContext = <
  const T extends Record<string, UseCase>,
  const K extends ReadonlyArray<Context.Key<unknown, unknown>>
>(
  useCases: T,
  ...ports: K
): Effect.Effect<
  BoundUseCases<T, Context.Service.Identifier<K[number]>>,
  never,
  Context.Service.Identifier<K[number]>
> =>
  Effect.map(Effect.context<Context.Service.Identifier<K[number]>>(), (context) =>
    bindPorts(
      useCases,
      Context.pick(...ports)(context) as Context.Context<Context.Service.Identifier<K[number]>>
    )
  )
