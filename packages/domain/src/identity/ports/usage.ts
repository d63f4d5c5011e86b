// Ports: request usage per tenant and key, kept in shared storage so that every app instance's
// requests count; the batcher takes counting off the request path.
import { type Effect, Context } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { ServiceName } from "../service.js"

export interface RequestRecord {
  readonly tenantId: string
  /** The service whose API answered (a tenant's forms and sharing requests are counted apart). */
  readonly service: ServiceName
  readonly keyId: string
  readonly status: number
  readonly at: Date
}

/** `count` requests of one tenant with one status around `at` (aggregated by the caller). */
export interface RequestTally extends RequestRecord {
  readonly count: number
}

export interface RequestCounts {
  readonly last24h: number
  readonly last7d: number
  readonly byStatusLast24h: {
    readonly ok: number
    readonly clientError: number
    readonly serverError: number
  }
}

export interface UsageStoreService {
  readonly record: (request: RequestRecord) => Effect.Effect<void, StorageError>
  /** Many tallies in one write (the HTTP layer batches requests and flushes every second). */
  readonly recordMany: (tallies: ReadonlyArray<RequestTally>) => Effect.Effect<void, StorageError>
  /** The tenant's requests to one service's API in the last day and week. */
  readonly counts: (
    tenantId: string,
    service: ServiceName,
    now: Date
  ) => Effect.Effect<RequestCounts, StorageError>
}

export class UsageStore extends Context.Service<UsageStore, UsageStoreService>()(
  "@folio/domain/UsageStore"
) {}

/**
 * Request usage recorded off the request path: `add` only counts, the implementation writes the
 * counts to the UsageStore later; `flush` writes what is pending now (before /usage answers).
 */
export interface UsageBatcherService {
  readonly add: (entry: RequestRecord) => Effect.Effect<void>
  readonly flush: Effect.Effect<void>
}

export class UsageBatcher extends Context.Service<UsageBatcher, UsageBatcherService>()(
  "@folio/domain/UsageBatcher"
) {}
