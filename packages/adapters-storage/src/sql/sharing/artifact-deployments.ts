// ArtifactDeployments over SQL: immutable rows, the file list as one JSON array. The unique
// (resource_id, number) makes an insert a claim on the next number; a claim still in flight is
// waited out here, polling, so racing writers queue behind it instead of spinning on their reads.
import {
  type DeployedFile,
  ArtifactDeployments,
  DEPLOYMENT_CLAIM_LEASE_MS,
  type DeploymentRecord,
  isUuid
} from "@folio/domain"
import { Duration, Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"

interface Row {
  readonly id: string
  readonly tenant_id: string
  readonly resource_id: string
  readonly number: number
  readonly base_deployment_id: string | null
  readonly files: ReadonlyArray<DeployedFile>
  readonly entry_path: string
  readonly site_bytes: number | string
  readonly created_at: Date
}

const toRecord = (row: Row): DeploymentRecord => ({
  id: row.id,
  tenantId: row.tenant_id,
  resourceId: row.resource_id,
  number: row.number,
  baseDeploymentId: row.base_deployment_id,
  files: row.files,
  entryPath: row.entry_path,
  siteBytes: Number(row.site_bytes),
  createdAt: row.created_at
})

/** The row holding a number, and whether the artifact has made it (or a later one) current. */
interface HolderRow {
  readonly id: string
  readonly created_at: Date
  readonly landed: boolean
}

/** Pauses between looks at a claim in flight: short at first, then at most this. */
const CLAIM_POLL_MAX = Duration.millis(200)
/** The longest a writer waits for a claim in flight before it reports the number taken. */
const CLAIM_WAIT_MS = 60_000

export const makeArtifactDeployments = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const one = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullishOr(rows[0]), toRecord)

  const tryInsert = (d: DeploymentRecord) =>
    sql`insert into artifact_deployments
          (id, tenant_id, resource_id, number, base_deployment_id, files, entry_path, site_bytes, created_at)
        values (${d.id}, ${d.tenantId}, ${d.resourceId}, ${d.number}, ${d.baseDeploymentId},
                ${jsonParam(d.files)}::jsonb, ${d.entryPath}, ${d.siteBytes}, ${d.createdAt})
        on conflict (resource_id, number) do nothing
        returning id`.pipe(Effect.map((rows) => rows.length > 0))

  /** Who holds `d`'s number: landed when the artifact's current number reached it (or it is gone). */
  const holderOf = (d: DeploymentRecord) =>
    sql<HolderRow>`
      select d.id, d.created_at,
             coalesce(r.deleted_at is not null or (r.data ->> 'deploymentNumber')::int >= d.number, true) as landed
      from artifact_deployments d left join resources r on r.id = d.resource_id
      where d.resource_id = ${d.resourceId} and d.number = ${d.number}`.pipe(
      Effect.map((rows) => Option.fromNullishOr(rows[0]))
    )

  const insert = (d: DeploymentRecord): Effect.Effect<"inserted" | "taken", SqlError.SqlError> =>
    Effect.gen(function* () {
      const leaseCutoff = new Date(d.createdAt.getTime() - DEPLOYMENT_CLAIM_LEASE_MS)
      let waited = 0
      for (let round = 0; ; round++) {
        if (yield* tryInsert(d)) return "inserted"
        const holder = yield* holderOf(d)
        if (Option.isNone(holder)) continue // discarded between the two statements: try again
        if (holder.value.landed || waited >= CLAIM_WAIT_MS) return "taken"
        if (holder.value.created_at <= leaseCutoff) {
          // Its writer died before its resource write: the number is free again.
          yield* sql`delete from artifact_deployments where id = ${holder.value.id}`
          continue
        }
        const pause = Math.min(Duration.toMillis(CLAIM_POLL_MAX), 5 * 2 ** Math.min(round, 6))
        yield* Effect.sleep(Duration.millis(pause))
        waited += pause
      }
    })

  return ArtifactDeployments.of({
    insert: (d) => orStorageError(insert(d)),
    get: (tenantId, id) =>
      isUuid(id)
        ? orStorageError(
            sql<Row>`select * from artifact_deployments where id = ${id} and tenant_id = ${tenantId}`.pipe(
              Effect.map(one)
            )
          )
        : Effect.succeed(Option.none()),
    getAnyTenant: (id) =>
      isUuid(id)
        ? orStorageError(sql<Row>`select * from artifact_deployments where id = ${id}`.pipe(Effect.map(one)))
        : Effect.succeed(Option.none()),
    discard: (id) =>
      isUuid(id)
        ? orStorageError(sql`delete from artifact_deployments where id = ${id}`.pipe(Effect.asVoid))
        : Effect.void
  })
})
