// Port: a bus that tells every instance of the app that something it may cache changed (a
// resource's slug, a deleted link). One instance publishes; every instance, itself included, hears
// it. A process alone needs only memory; instances sharing one PostgreSQL use LISTEN/NOTIFY.
import { Context, type Effect, type Scope } from "effect"
import type { StorageError } from "../errors.js"

export interface InvalidationBusService {
  /** Tells every instance (this one included) that `key` of `topic` changed. */
  readonly publish: (topic: string, key: string) => Effect.Effect<void, StorageError>
  /**
   * Calls `onMessage` with every key of `topic` published from the moment this returns, on any
   * instance, until the scope closes.
   */
  readonly subscribe: (
    topic: string,
    onMessage: (key: string) => Effect.Effect<void>
  ) => Effect.Effect<void, StorageError, Scope.Scope>
}

export class InvalidationBus extends Context.Service<InvalidationBus, InvalidationBusService>()(
  "@folio/domain/InvalidationBus"
) {}
