// Port: rate-limit counters. Backed by shared storage so that several app instances enforce one
// budget per key (and per client address).
import { type Effect, Context } from "effect"
import type { StorageError } from "../../kernel/errors.js"

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
