// Port: idempotency keys (sharing-api.md: bulk create and import require `Idempotency-Key`). A key
// is the tenant's; its first request claims it under a unique constraint, so two concurrent requests
// with one key never both run; the claimer stores its answer, and the same key with the same request
// replays that answer for 24 hours. The same key with another request is a conflict.
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

/** What a replay answers: the first answer's status, headers worth repeating, and JSON body. */
export interface IdempotentAnswer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: unknown
}

export interface IdempotencyClaim {
  readonly tenantId: string
  /** The client's `Idempotency-Key` (1 to 255 characters; the caller validates it). */
  readonly key: string
  /** A digest of what makes two requests the same (route and canonical body), made by the caller. */
  readonly requestHash: string
  /** A fresh random id naming this claim: only its holder can complete or release it. */
  readonly token: string
  readonly now: Date
}

export type ClaimOutcome =
  /** This request holds the key now: run it, then `complete` (or `release` if it did not finish). */
  | { readonly _tag: "Claimed" }
  /** The same request already ran: answer this, run nothing. */
  | { readonly _tag: "Replay"; readonly answer: IdempotentAnswer }
  /** The same request is running right now (no answer yet): run nothing. */
  | { readonly _tag: "InProgress" }
  /** The key was used with another request within 24 hours (409 `idempotency_conflict`). */
  | { readonly _tag: "Mismatch" }

export interface IdempotencyStoreService {
  /**
   * Claims the key, or says why not. An expired key (24 h after its claim) is claimed afresh, and
   * so is an unanswered claim of the same request older than IDEMPOTENCY_LEASE_MS.
   */
  readonly claim: (claim: IdempotencyClaim) => Effect.Effect<ClaimOutcome, StorageError>
  /** Stores the answer of a claim; false when the claim is no longer this token's (lease lost). */
  readonly complete: (
    tenantId: string,
    key: string,
    token: string,
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
