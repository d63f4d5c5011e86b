// Port: idempotency keys (sharing-api.md: bulk create and import require `Idempotency-Key`; every
// create honours it). A key is the tenant's; its first request claims it under a unique constraint,
// so two concurrent requests with one key never both run; the claimer stores its answer as sent, and
// the same key with the same request replays it for 24 hours. The domain compares the digests.
import { type Effect, Context } from "effect"
import type { StorageError } from "../../kernel/errors.js"

/** How long a key remembers its answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000

/**
 * How long a claim without an answer holds its key. A request that crashed (or whose instance died)
 * before storing its answer would otherwise block its key for a day; after the lease the same
 * request may claim it again. Far above the time of any bulk request.
 */
export const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000

/** What a replay answers: the first answer's status, headers worth repeating, and body as sent. */
export interface IdempotentAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  /** The body exactly as it went on the wire (JSON text): a replay sends these bytes again. */
  readonly body: string
}

export interface IdempotencyClaim {
  readonly tenantId: string
  /** The client's `Idempotency-Key` (1 to 255 characters; the caller validates it). */
  readonly key: string
  /**
   * A digest of what makes two requests the same (route and canonical body), made by the caller;
   * null for a streamed body, whose digest is known only when it has been read (given to `complete`).
   */
  readonly requestHash: string | null
  /** A fresh random id naming this claim: only its holder can complete or release it. */
  readonly token: string
  readonly now: Date
}

export type ClaimOutcome =
  /** This request holds the key now: run it, then `complete` (or `release` if it did not finish). */
  | { readonly _tag: "Claimed" }
  /** A request with this key already ran (`requestHash` is its digest): its answer. */
  | { readonly _tag: "Answered"; readonly requestHash: string; readonly answer: IdempotentAnswer }
  /** A request with this key runs right now (its digest, when it was known at its claim). */
  | { readonly _tag: "InProgress"; readonly requestHash: string | null }

export interface IdempotencyStoreService {
  /**
   * Claims the key, or says who holds it. An expired key (24 h after its claim) is claimed afresh,
   * and so is an unanswered claim older than IDEMPOTENCY_LEASE_MS (its request died).
   */
  readonly claim: (claim: IdempotencyClaim) => Effect.Effect<ClaimOutcome, StorageError>
  /**
   * Stores the answer of a claim and the request's digest; false when the claim is no longer this
   * token's (lease lost).
   */
  readonly complete: (
    tenantId: string,
    key: string,
    token: string,
    requestHash: string,
    answer: IdempotentAnswer
  ) => Effect.Effect<boolean, StorageError>
  /** Gives up an unanswered claim so a retry can run at once; false when it was not this token's. */
  readonly release: (tenantId: string, key: string, token: string) => Effect.Effect<boolean, StorageError>
  /** Forgets every key expired at `now`; answers how many. Housekeeping, any time. */
  readonly purgeExpired: (now: Date) => Effect.Effect<number, StorageError>
}

export class IdempotencyStore extends Context.Service<IdempotencyStore, IdempotencyStoreService>()(
  "@folio/domain/IdempotencyStore"
) {}
