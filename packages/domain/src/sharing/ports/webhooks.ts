// Ports: webhook endpoints and their deliveries (events fan out to the endpoints subscribed to them
// in the transaction that writes the event, see the outbox), and the outbound HTTP client.
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { WebhookEndpointRecord, WebhookPolicy } from "../webhooks/webhook.js"
import type { SharingEventRecord } from "./upload-requests.js"

export interface WebhookAttemptRecord {
  readonly id: string
  readonly tenantId: string
  readonly endpointId: string
  readonly deliveryId: string | null
  readonly eventId: string
  readonly eventType: string
  readonly attemptedAt: Date
  readonly ok: boolean
  readonly statusCode: number | null
  readonly latencyMs: number
  readonly error: string | null
  readonly responseExcerpt: string | null
}

/** The head of an endpoint's queue of deliveries. */
export type NextDelivery =
  | { readonly _tag: "None" }
  /** The head waits for its retry time: nothing behind it goes first (order per endpoint). */
  | { readonly _tag: "Waiting"; readonly until: Date }
  | {
      readonly _tag: "Due"
      readonly deliveryId: string
      readonly attempts: number
      readonly event: SharingEventRecord
    }

/** What one attempt did to its delivery and endpoint. */
export interface AttemptOutcome {
  readonly attempt: WebhookAttemptRecord
  /** For a failure: when to try again, or undefined to give the delivery up. */
  readonly retryAt?: Date | undefined
}

export interface WebhookStoreService {
  /** A new endpoint, unless the account has `max` already (then false, nothing written). */
  readonly insert: (endpoint: WebhookEndpointRecord, max: number) => Effect.Effect<boolean, StorageError>
  readonly list: (tenantId: string) => Effect.Effect<ReadonlyArray<WebhookEndpointRecord>, StorageError>
  readonly get: (
    tenantId: string,
    id: string
  ) => Effect.Effect<Option.Option<WebhookEndpointRecord>, StorageError>
  /**
   * Removes the endpoint with its deliveries and attempts; false when the account has no such
   * endpoint. An event written at the same moment either reaches it before (and goes with it) or
   * does not see it: never a failed write.
   */
  readonly remove: (tenantId: string, id: string) => Effect.Effect<boolean, StorageError>
  /** Writes `next` if its rowVersion is the stored one plus one (else "stale"). */
  readonly update: (
    tenantId: string,
    next: WebhookEndpointRecord
  ) => Effect.Effect<"updated" | "stale", StorageError>
  /** The endpoint's latest attempts, newest first. */
  readonly attempts: (
    tenantId: string,
    endpointId: string,
    limit: number
  ) => Effect.Effect<ReadonlyArray<WebhookAttemptRecord>, StorageError>
  /** Records an attempt that belongs to no delivery (the test event). */
  readonly recordTestAttempt: (attempt: WebhookAttemptRecord) => Effect.Effect<void, StorageError>
  /** The head of the endpoint's pending deliveries at `at`. */
  readonly nextDelivery: (endpointId: string, at: Date) => Effect.Effect<NextDelivery, StorageError>
  /**
   * Records a delivery's attempt in one transaction: the attempt row; the delivery delivered, or
   * pending until `retryAt`, or failed for good; the endpoint's failure count reset by a success,
   * else raised, and the endpoint disabled (with a reason) when it reaches the policy's limit.
   * Answers whether the endpoint is still enabled.
   */
  readonly recordAttempt: (
    outcome: AttemptOutcome,
    policy: WebhookPolicy
  ) => Effect.Effect<boolean, StorageError>
  /**
   * Delivery resumes for an endpoint turned on again: its pending deliveries of events older than
   * `heldSince` are given up, and the rest are due at `at` (a retry wait from before is dropped).
   */
  readonly resumeDeliveries: (
    tenantId: string,
    endpointId: string,
    at: Date,
    heldSince: Date
  ) => Effect.Effect<void, StorageError>
  /**
   * Gives up (at `at`) up to `limit` pending deliveries of disabled endpoints whose events are older
   * than `heldSince`, so a paused endpoint holds a bounded window. Answers how many.
   */
  readonly giveUpHeld: (heldSince: Date, at: Date, limit: number) => Effect.Effect<number, StorageError>
  /** Enabled endpoints with a due pending delivery and no delivery job active (the sweep queues one each). */
  readonly dueEndpoints: (
    at: Date,
    limit: number
  ) => Effect.Effect<ReadonlyArray<{ readonly tenantId: string; readonly endpointId: string }>, StorageError>
  /**
   * Live resources whose `expires_at` has passed and whose expiry was not announced yet: each is
   * marked and its `resource.expired` event written, in one transaction. Answers how many.
   */
  readonly announceExpiries: (at: Date, limit: number) => Effect.Effect<number, StorageError>
}

export class WebhookStore extends Context.Service<WebhookStore, WebhookStoreService>()(
  "@folio/domain/WebhookStore"
) {}

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMs: number
}

export interface WebhookResponse {
  readonly ok: boolean
  readonly statusCode: number | null
  readonly latencyMs: number
  /**
   * Value-free: `status 500`, `redirect 302 not followed`, `timed out` (after a TLS session with the
   * host), or WEBHOOK_UNDELIVERABLE for anything before one (refused address, connection, TLS).
   */
  readonly error: string | null
  readonly excerpt: string | null
}

export interface WebhookSenderService {
  /** One POST; never fails: every failure is in the response. No redirect is followed. */
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse>
}

export class WebhookSender extends Context.Service<WebhookSender, WebhookSenderService>()(
  "@folio/domain/WebhookSender"
) {}
