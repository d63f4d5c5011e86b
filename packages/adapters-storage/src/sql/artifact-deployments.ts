// ArtifactDeployments over SQL: immutable rows, the file list as one JSON array.
import { type DeployedFile, ArtifactDeployments, type DeploymentRecord, isUuid } from "@folio/domain"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { orStorageError } from "./errors.js"
import { jsonParam } from "./json.js"

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

export const makeArtifactDeployments = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const one = (rows: ReadonlyArray<Row>) => Option.map(Option.fromNullishOr(rows[0]), toRecord)
  return ArtifactDeployments.of({
    insert: (d) =>
      orStorageError(
        sql`insert into artifact_deployments
              (id, tenant_id, resource_id, number, base_deployment_id, files, entry_path, site_bytes, created_at)
            values (${d.id}, ${d.tenantId}, ${d.resourceId}, ${d.number}, ${d.baseDeploymentId},
                    ${jsonParam(d.files)}::jsonb, ${d.entryPath}, ${d.siteBytes}, ${d.createdAt})`.pipe(
          Effect.asVoid
        )
      ),
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
