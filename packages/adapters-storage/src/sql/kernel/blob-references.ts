// BlobReferences over SQL: the rows that name blobs (response_files.key, image keys in form
// definitions and settings, live resources' data, artifact deployments' files, notion_assets),
// looked up a batch of keys at a time, and read back a page of rows at a time, keyed by id.
import { BlobReferences, type DeployedFile, type StorageError, storedFormImageKeys } from "@folio/domain"
import { Effect, Option, Stream } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { type ResourceReferences, referencedAmong, resourceKeys } from "../../blob-references.js"
import { orStorageError } from "../errors.js"
import { jsonParam } from "../json.js"

/** Rows read at once while enumerating every referenced key. */
const PAGE = 500

/** Below every UUID: where a keyset walk starts. */
const FIRST_ID = "00000000-0000-0000-0000-000000000000"

interface ResourceRow {
  readonly id: string
  readonly tenant_id: string
  readonly data: unknown
}

export const makeBlobReferences = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient

  /** The rows `ids` names as a uuid set, for `in (...)` (one text parameter, any length). */
  const uuids = (ids: ReadonlyArray<string>) =>
    sql`(select (jsonb_array_elements_text(${jsonParam(ids)}::jsonb))::uuid)`
  const texts = (values: ReadonlyArray<string>) =>
    sql`(select jsonb_array_elements_text(${jsonParam(values)}::jsonb))`

  /** `rows` (live resources) with their deployments' files and Notion assets: two more queries. */
  const withReferences = (rows: ReadonlyArray<ResourceRow>) =>
    Effect.gen(function* () {
      if (rows.length === 0) return []
      const ids = rows.map((r) => r.id)
      const deployments = yield* sql<{ resource_id: string; files: ReadonlyArray<DeployedFile> }>`
        select resource_id, files from artifact_deployments where resource_id in ${uuids(ids)}`
      const assets = yield* sql<{ resource_id: string; blob_key: string }>`
        select resource_id, blob_key from notion_assets where resource_id in ${uuids(ids)}`
      return rows.map(
        (r): ResourceReferences => ({
          tenantId: r.tenant_id,
          id: r.id,
          data: r.data,
          deploymentFiles: deployments.filter((d) => d.resource_id === r.id).map((d) => d.files),
          notionKeys: assets.filter((a) => a.resource_id === r.id).map((a) => a.blob_key)
        })
      )
    })

  /** One table a page of rows at a time after the last id seen, each page turned into its keys. */
  const pages = <Row extends { readonly id: string }>(
    read: (after: string) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>,
    keysOf: (rows: ReadonlyArray<Row>) => Effect.Effect<ReadonlyArray<string>, SqlError.SqlError>
  ): Stream.Stream<string, StorageError> =>
    Stream.paginate<string, string, StorageError>(FIRST_ID, (after) =>
      orStorageError(
        Effect.gen(function* () {
          const rows = yield* read(after)
          const last = rows.at(-1)
          const keys = yield* keysOf(rows)
          return [
            keys,
            rows.length < PAGE || last === undefined ? Option.none() : Option.some(last.id)
          ] as const
        })
      )
    )

  return BlobReferences.of({
    referenced: (keys) =>
      referencedAmong(keys, {
        responseFileKeys: (responseIds, wanted) =>
          orStorageError(
            sql<{ key: string }>`
              select key from response_files
              where response_id in ${uuids(responseIds)} and key in ${texts(wanted)}`.pipe(
              Effect.map((rows) => new Set(rows.map((r) => r.key)))
            )
          ),
        // A substring of the stored JSON: a key's characters ([A-Za-z0-9/._-]) are never escaped in
        // it, and a longer string containing the key only keeps it (the safe side).
        assetKeys: (workspaceId, wanted) =>
          orStorageError(
            sql<{ key: string }>`
              select k.key from ${texts(wanted)} as k (key)
              where exists (
                  select 1 from forms f where f.workspace_id = ${workspaceId}
                    and (strpos(coalesce(f.draft_definition::text, ''), k.key) > 0
                         or strpos(coalesce(f.settings::text, ''), k.key) > 0))
                 or exists (
                  select 1 from form_versions v where v.workspace_id = ${workspaceId}
                    and strpos(coalesce(v.definition::text, ''), k.key) > 0)`.pipe(
              Effect.map((rows) => new Set(rows.map((r) => r.key)))
            )
          ),
        liveResources: (ids) =>
          orStorageError(
            Effect.flatMap(
              sql<ResourceRow>`
                select id, tenant_id, data from resources
                where deleted_at is null and id in ${uuids(ids)}`,
              withReferences
            )
          )
      }),
    all: Stream.concat(
      pages(
        (after) =>
          sql<{ id: string; key: string }>`
            select id, key from response_files where id > ${after} order by id limit ${PAGE}`,
        (rows) => Effect.succeed(rows.map((r) => r.key))
      ),
      Stream.concat(
        pages(
          (after) =>
            sql<{ id: string; draft_definition: unknown; settings: unknown }>`
              select id, draft_definition, settings from forms where id > ${after} order by id limit ${PAGE}`,
          (rows) =>
            Effect.succeed(
              rows.flatMap((r) => [
                ...storedFormImageKeys(r.draft_definition),
                ...storedFormImageKeys(r.settings)
              ])
            )
        ),
        Stream.concat(
          pages(
            (after) =>
              sql<{ id: string; definition: unknown }>`
                select id, definition from form_versions where id > ${after} order by id limit ${PAGE}`,
            (rows) => Effect.succeed(rows.flatMap((r) => storedFormImageKeys(r.definition)))
          ),
          pages(
            (after) =>
              sql<ResourceRow>`
                select id, tenant_id, data from resources
                where deleted_at is null and id > ${after} order by id limit ${PAGE}`,
            (rows) => Effect.map(withReferences(rows), (refs) => refs.flatMap(resourceKeys))
          )
        )
      )
    )
  })
})
