// Ports: rate-limit counters and request usage. Backed by shared storage so that several app
// instances enforce one budget per key.
import { type Effect, Context } from "effect"
import type { StorageError } from "../kernel/errors.js"

/** Fixed-window counter result after counting one hit. */
export interface RateLimitHit {
  /** Hits in the current window, including this one. */
  readonly count: number
  /** When the current window ends (epoch ms). */
  readonly resetAt: number
}

export interface RateLimitStoreService {
  /** Counts one hit on `bucket` in the fixed window of `windowMs` containing `nowMs`. */
  readonly hit: (bucket: string, windowMs: number, nowMs: number) => Effect.Effect<RateLimitHit, StorageError>
  /** Counts one hit on each bucket in a single round trip; results in the order given. */
  readonly hitMany: (
    buckets: ReadonlyArray<string>,
    windowMs: number,
    nowMs: number
  ) => Effect.Effect<ReadonlyArray<RateLimitHit>, StorageError>
  /** Adds `hits` to each bucket in one round trip (buffered counting); totals in the order given. */
  readonly addMany: (
    entries: ReadonlyArray<{ readonly bucket: string; readonly hits: number }>,
    windowMs: number,
    nowMs: number
  ) => Effect.Effect<ReadonlyArray<RateLimitHit>, StorageError>
  /** Current hits without counting one. */
  readonly peek: (
    bucket: string,
    windowMs: number,
    nowMs: number
  ) => Effect.Effect<RateLimitHit, StorageError>
}

export class RateLimitStore extends Context.Service<RateLimitStore, RateLimitStoreService>()(
  "@folio/domain/RateLimitStore"
) {}

export interface RequestRecord {
  readonly workspaceId: string
  readonly keyId: string
  readonly status: number
  readonly at: Date
}

/** `count` requests of one workspace with one status around `at` (aggregated by the caller). */
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
  readonly counts: (workspaceId: string, now: Date) => Effect.Effect<RequestCounts, StorageError>
}

export class UsageStore extends Context.Service<UsageStore, UsageStoreService>()(
  "@folio/domain/UsageStore"
) {}

/**
 * Request usage recorded off the request path: `add` only counts, the implementation writes the
 * counts to the UsageStore later; `flush` writes what is pending now (before /usage answers).
 */
export interface UsageBatcherService {
  readonly add: (entry: {
    workspaceId: string
    keyId: string
    status: number
    at: Date
  }) => Effect.Effect<void>
  readonly flush: Effect.Effect<void>
}

export class UsageBatcher extends Context.Service<UsageBatcher, UsageBatcherService>()(
  "@folio/domain/UsageBatcher"
) {}
