// InvalidationBus over PostgreSQL's LISTEN/NOTIFY: every app instance on one database hears every
// publish, its own included. A subscription holds one connection of the pool while it lives; a lost
// connection is listened to again after a pause (messages sent meanwhile are lost, so subscribers
// must treat a resubscription as "anything may have changed").
import { InvalidationBus } from "@folio/domain"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Queue, Schedule } from "effect"
import { toStorageError } from "../errors.js"

/** PostgreSQL channel names are identifiers: one per topic, under our prefix. */
export const channelOf = (topic: string) => `folio_${topic.replace(/[^a-z0-9_]/gi, "_")}`.slice(0, 63)

export const PgInvalidationBusLive = Layer.effect(
  InvalidationBus,
  Effect.gen(function* () {
    const pg = yield* PgClient.PgClient
    return InvalidationBus.of({
      publish: (topic, key) => pg.notify(channelOf(topic), key).pipe(Effect.mapError(toStorageError)),
      subscribe: (topic, onMessage) =>
        Effect.gen(function* () {
          const channel = channelOf(topic)
          const consume = (queue: Queue.Dequeue<{ readonly payload: string }, unknown>) =>
            Effect.forever(Effect.flatMap(Queue.take(queue), (n) => onMessage(n.payload)))
          // Listening before returning: nothing published after subscribe returns is missed.
          const first = yield* pg.listen(channel).pipe(Effect.mapError(toStorageError))
          const again = Effect.scoped(Effect.flatMap(pg.listen(channel), consume)).pipe(
            Effect.retry(Schedule.spaced("1 second"))
          )
          yield* Effect.forkScoped(consume(first).pipe(Effect.catch(() => again)))
        })
    })
  })
)
