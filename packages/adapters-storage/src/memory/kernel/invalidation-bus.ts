// InvalidationBus for one process (memory storage and the embedded database, which only one process
// can open): subscribers hear every publish at once, in order.
import { InvalidationBus } from "@folio/domain"
import { Effect, Layer } from "effect"

export const MemoryInvalidationBusLive = Layer.sync(InvalidationBus, () => {
  const listeners = new Map<string, Set<(key: string) => Effect.Effect<void>>>()
  return InvalidationBus.of({
    publish: (topic, key) =>
      Effect.forEach(listeners.get(topic) ?? [], (listen) => listen(key), { discard: true }),
    subscribe: (topic, onMessage) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const set = listeners.get(topic) ?? new Set()
          set.add(onMessage)
          listeners.set(topic, set)
        }),
        () => Effect.sync(() => listeners.get(topic)?.delete(onMessage))
      )
  })
})
