// IdempotencyStore over SQL. The claim is one `insert ... on conflict do update ... where`: the
// primary key (tenant, key) lets exactly one of several concurrent first requests insert, and the
// conflict branch takes a key over only when it has expired or its unanswered claim outlived the
// lease. Whoever did not get the key reads who holds it. Answers are kept as sent: the body as text.
import { type ClaimOutcome, IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS, IdempotencyStore } from "@folio/domain"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"

interface KeyRow {
  readonly request_hash: string | null
  readonly answer_status: number | null
  readonly answer_headers: Readonly<Record<string, string>> | null
  readonly answer_body: string | null
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
              insert into idempotency_keys (tenant_id, key, request_hash, token, claimed_at, expires_at)
              values (${c.tenantId}, ${c.key}, ${c.requestHash}, ${c.token}, ${c.now}, ${expiresAt})
              on conflict (tenant_id, key) do update set
                request_hash = excluded.request_hash, token = excluded.token, answer_status = null,
                answer_headers = null, answer_body = null,
                claimed_at = excluded.claimed_at, expires_at = excluded.expires_at
              where idempotency_keys.expires_at <= excluded.claimed_at
                 or (idempotency_keys.answer_status is null and idempotency_keys.claimed_at <= ${leaseCutoff}
                     and (idempotency_keys.request_hash is null or excluded.request_hash is null
                          or idempotency_keys.request_hash = excluded.request_hash))
              returning key`
            if (claimed.length > 0) return { _tag: "Claimed" } satisfies ClaimOutcome
            const [held] = yield* sql<KeyRow>`
              select request_hash, answer_status, answer_headers, answer_body from idempotency_keys
              where tenant_id = ${c.tenantId} and key = ${c.key}`
            if (held === undefined) continue
            if (
              held.answer_status === null ||
              held.answer_body === null ||
              held.answer_headers === null ||
              held.request_hash === null
            )
              return { _tag: "InProgress", requestHash: held.request_hash } satisfies ClaimOutcome
            return {
              _tag: "Answered",
              requestHash: held.request_hash,
              answer: { status: held.answer_status, headers: held.answer_headers, body: held.answer_body }
            } satisfies ClaimOutcome
          }
          // Released again and again under our feet: someone is working this key right now.
          return { _tag: "InProgress", requestHash: null } satisfies ClaimOutcome
        })
      ),

    complete: (tenantId, key, token, requestHash, answer) =>
      orStorageError(
        sql`update idempotency_keys set request_hash = ${requestHash}, answer_status = ${answer.status},
              answer_headers = ${jsonParam(answer.headers)}::jsonb, answer_body = ${answer.body}
            where tenant_id = ${tenantId} and key = ${key} and token = ${token} and answer_status is null
            returning key`.pipe(Effect.map((rows) => rows.length > 0))
      ),

    release: (tenantId, key, token) =>
      orStorageError(
        sql`delete from idempotency_keys
            where tenant_id = ${tenantId} and key = ${key} and token = ${token} and answer_status is null
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
