// Fake ports for use-case tests: a Layer for a service tag holding only the methods a test gives;
// any other member dies, naming the service and the member, the moment a use case reaches it.
import { type Context, Effect, Layer } from "effect"

/**
 * A member the test did not give: callable (a method) and an Effect itself (a member such as
 * `TenantRepository.count`), dying in both cases with what was reached.
 */
const unimplemented = (service: string, member: string) => {
  const dead = Effect.die(new Error(`fake ${service}: ${member} is not implemented in this test`))
  const fn = () => dead
  Object.assign(fn, dead)
  Object.setPrototypeOf(fn, Object.getPrototypeOf(dead))
  return fn
}

/** The service of `tag` built from `partial`; unimplemented members die with a clear message. */
const fakeService = <I, S extends object>(tag: Context.Key<I, S>, partial: Partial<S>): S =>
  new Proxy({ ...partial } as S, {
    get(target, prop, receiver) {
      if (typeof prop === "symbol" || prop === "then" || prop in target)
        return Reflect.get(target, prop, receiver)
      const dead = unimplemented(tag.key, prop)
      Reflect.set(target, prop, dead)
      return dead
    }
  })

/** A Layer for `tag` with only the members a test needs (Effect-TS/examples' `makeTestLayer`). */
export const fakeLayer = <I, S extends object>(tag: Context.Key<I, S>, partial: Partial<S>): Layer.Layer<I> =>
  Layer.succeed(tag, fakeService(tag, partial))
