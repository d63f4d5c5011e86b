// IdempotencyStore over SQL. The claim is one `insert ... on conflict do update ... where`: the
// primary key (tenant, key) lets exactly one of several concurrent first requests insert, and the
// conflict branch takes a key over only when it has expired or its unanswered claim outlived the
// lease. Whoever did not get the key reads why.
import {
  type ClaimOutcome,
  IDEMPOTENCY_LEASE_MS,
  IDEMPOTENCY_TTL_MS,
  IdempotencyStore,
  type IdempotentAnswer
} from "@folio/domain"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "./errors.js"
import { jsonParam } from "./json.js"

interface KeyRow {
  readonly request_hash: string
  readonly answer: IdempotentAnswer | null
}

/** Tries of a claim whose key vanished (released) between the insert and the read. */
const CLAIM_ATTEMPTS = 3

export const makeIdempotencyStore = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  return IdempotencyStore.of({
    claim: (c) =>
      orStorageError(
        Effect.gen(function* () {
          const expiresAt = new Date(c.now.getTime() + IDEMPOTENCY_TTL_MS)
          const leaseCutoff = new Date(c.now.getTime() - IDEMPOTENCY_LEASE_MS)
          for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
            const claimed = yield* sql`
              insert into idempotency_keys (tenant_id, key, request_hash, token, answer, claimed_at, expires_at)
              values (${c.tenantId}, ${c.key}, ${c.requestHash}, ${c.token}, null, ${c.now}, ${expiresAt})
              on conflict (tenant_id, key) do update set
                request_hash = excluded.request_hash, token = excluded.token, answer = null,
                claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
              where idempotency_keys.expires_at <= excluded.claimed_at
                 or (idempotency_keys.answer is null
                     and idempotency_keys.request_hash = excluded.request_hash
                     and idempotency_keys.claimed_at <= ${leaseCutoff})
              returning key`
            if (claimed.length > 0) return { _tag: "Claimed" } satisfies ClaimOutcome
            const [held] = yield* sql<KeyRow>`
              select request_hash, answer from idempotency_keys
              where tenant_id = ${c.tenantId} and key = ${c.key}`
            if (held === undefined) continue
            if (held.request_hash !== c.requestHash) return { _tag: "Mismatch" } satisfies ClaimOutcome
            if (held.answer !== null) return { _tag: "Replay", answer: held.answer } satisfies ClaimOutcome
            return { _tag: "InProgress" } satisfies ClaimOutcome
          }
          // Released again and again under our feet: someone is working this key right now.
          return { _tag: "InProgress" } satisfies ClaimOutcome
        })
      ),

    complete: (tenantId, key, token, answer) =>
      orStorageError(
        sql`update idempotency_keys set answer = ${jsonParam(answer)}::jsonb
            where tenant_id = ${tenantId} and key = ${key} and token = ${token} and answer is null
            returning key`.pipe(Effect.map((rows) => rows.length > 0))
      ),

    release: (tenantId, key, token) =>
      orStorageError(
        sql`delete from idempotency_keys
            where tenant_id = ${tenantId} and key = ${key} and token = ${token} and answer is null
            returning key`.pipe(Effect.map((rows) => rows.length > 0))
      ),

    purgeExpired: (now) =>
      orStorageError(
        sql`delete from idempotency_keys where expires_at <= ${now} returning key`.pipe(
          Effect.map((rows) => rows.length)
        )
      )
  })
})

/** The store alone over a provided SqlClient (SqlRepositoriesLive includes it). */
export const SqlIdempotencyStoreLive = Layer.effect(IdempotencyStore, makeIdempotencyStore)
