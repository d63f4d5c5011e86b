// An account's stored bytes (what the storage quota counts), moved inside the caller's transaction
// by every repository whose rows hold blobs: resources, and the assets of Notion mirrors.
import { StorageQuotaReached } from "@folio/domain"
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"

export const storageUsage = (sql: SqlClient.SqlClient) => {
  const releaseStoredBytes = (tenantId: string, bytes: number) =>
    bytes <= 0
      ? Effect.void
      : Effect.asVoid(sql`update storage_usage set used_bytes = greatest(used_bytes - ${bytes}, 0)
                          where tenant_id = ${tenantId}`)

  /**
   * Moves the account's stored bytes by `delta`. Adding is a conditional update against the quota:
   * the row lock it takes serializes the account's concurrent writers, and the condition is checked
   * on the committed count, so two writes cannot pass together.
   */
  const moveStoredBytes = (tenantId: string, delta: number, quotaBytes: number | undefined) =>
    Effect.gen(function* () {
      if (delta <= 0) return yield* releaseStoredBytes(tenantId, -delta)
      yield* sql`insert into storage_usage (tenant_id, used_bytes) values (${tenantId}, 0)
                 on conflict (tenant_id) do nothing`
      const limit = quotaBytes ?? Number.MAX_SAFE_INTEGER
      const moved = yield* sql`update storage_usage set used_bytes = used_bytes + ${delta}
                               where tenant_id = ${tenantId} and used_bytes + ${delta} <= ${limit}
                               returning used_bytes`
      if (moved.length === 0) {
        const [row] = yield* sql<{ readonly used_bytes: number | string }>`
          select used_bytes from storage_usage where tenant_id = ${tenantId}`
        return yield* Effect.fail(new StorageQuotaReached(Number(row?.used_bytes ?? 0), limit))
      }
    })

  return { moveStoredBytes, releaseStoredBytes }
}
