// Request usage (REST and MCP alike) is counted in memory and written once a second as per-minute tallies, so recording
// it costs no database round trip on the request path. Pending tallies are flushed before /usage
// answers and when the server shuts down; each flush also moves the keys' last use forward.
import { type RequestTally, UsageBatcher, UsageStore } from "@folio/domain"
import { Effect, Layer, Schedule, Semaphore } from "effect"

const MINUTE = 60_000

export const UsageBatcherLive = Layer.effect(
  UsageBatcher,
  Effect.gen(function* () {
    const usage = yield* UsageStore
    let pending = new Map<string, RequestTally>()
    const flushOnce = Effect.suspend(() => {
      if (pending.size === 0) return Effect.void
      const batch = [...pending.values()]
      pending = new Map()
      return Effect.catch(usage.recordMany(batch), (e) => Effect.logWarning("usage tallies not recorded", e))
    })
    // One flush at a time: a flush called while the loop's is writing waits for it, so what was
    // added before it is written when it returns (the usage report, a key's last use).
    const lock = Semaphore.makeUnsafe(1)
    const flush = lock.withPermit(flushOnce)
    yield* Effect.forkScoped(Effect.repeat(flush, Schedule.spaced("1 second")))
    yield* Effect.addFinalizer(() => flush)
    return UsageBatcher.of({
      add: ({ tenantId, service, keyId, status, at }) =>
        Effect.sync(() => {
          const minute = Math.floor(at.getTime() / MINUTE) * MINUTE
          const key = `${tenantId}|${keyId}|${minute}|${status}`
          const current = pending.get(key)
          pending.set(key, {
            tenantId,
            service,
            keyId,
            status,
            at: new Date(minute),
            count: (current?.count ?? 0) + 1
          })
        }),
      flush
    })
  })
)
