// ResponseRepository over SQL: responses pinned to a form version, listed newest first by keyset.
import { SqlClient } from "effect/sql"
import {
  type ResponseFileRecord,
  ResponseRepository,
  type ResponseRecord,
  type ResponseUpdate
} from "@folio/domain"
import { Data, Effect, Option } from "effect"
import { applyContributions, readAnswerStats, rebuildAnswerStats, recomputeExtremes } from "./answer-stats.js"
import { orStorageError } from "../errors.js"
import { insertJob } from "../kernel/jobs.js"
import { jsonParam } from "../json.js"
import { timeIdCursor, toPage } from "../keyset.js"

interface ResponseRow {
  readonly id: string
  readonly workspace_id: string
  readonly form_id: string
  readonly form_version_id: string
  readonly status: ResponseRecord["status"]
  readonly answers: Record<string, unknown>
  readonly meta: Record<string, unknown>
  readonly created_at: Date
  readonly updated_at: Date
  readonly completed_at: Date | null
  readonly version: number
}

/** Rolls back a completion that would exceed the form's cap. */
class OverCap extends Data.TaggedError("OverCap") {}

interface FileRow {
  readonly id: string
  readonly workspace_id: string
  readonly form_id: string
  readonly response_id: string
  readonly block_id: string
  readonly key: string
  readonly filename: string
  readonly content_type: string
  readonly size: number
  readonly created_at: Date
}

const toFile = (row: FileRow): ResponseFileRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  formId: row.form_id,
  responseId: row.response_id,
  blockId: row.block_id,
  key: row.key,
  filename: row.filename,
  contentType: row.content_type,
  size: row.size,
  createdAt: row.created_at
})

const toResponse = (row: ResponseRow): ResponseRecord => ({
  id: row.id,
  workspaceId: row.workspace_id,
  formId: row.form_id,
  formVersionId: row.form_version_id,
  status: row.status,
  answers: row.answers,
  meta: row.meta,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
  version: row.version
})

export const makeResponseRepository = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return ResponseRepository.of({
    insert: (r) => {
      const insert = sql`insert into responses (id, workspace_id, form_id, form_version_id, status, answers, meta,
                                   created_at, updated_at, completed_at, version)
            values (${r.id}, ${r.workspaceId}, ${r.formId}, ${r.formVersionId}, ${r.status},
                    ${jsonParam(r.answers)}::jsonb, ${jsonParam(r.meta)}::jsonb,
                    ${r.createdAt}, ${r.updatedAt}, ${r.completedAt}, 1)`
      return orStorageError(
        r.status === "completed"
          ? sql.withTransaction(Effect.andThen(insert, applyContributions(sql, r.formId, r, 1)))
          : Effect.asVoid(insert)
      ).pipe(Effect.asVoid)
    },
    // Compare-and-set on (status, version): the write applies only to the row the caller read, and
    // the row and the kept aggregates change in one transaction (a completion adds its answers, an
    // edit of a completed response swaps its old contribution for the new one).
    update: (r, expected, options) => {
      const cap =
        expected.status === "partial" && r.status === "completed" ? expected.maxCompleted : undefined
      const write = Effect.gen(function* () {
        // Capped completions queue on the form row, so each one counts every completion before it.
        // (NO KEY UPDATE: starts, whose foreign key only takes KEY SHARE on the form, are not held up.)
        if (cap !== undefined) yield* sql`select 1 from forms where id = ${r.formId} for no key update`
        const [old] = yield* sql<Pick<ResponseRow, "status" | "answers" | "meta">>`
          with old as (
            select id, status, answers, meta from responses
            where id = ${r.id} and workspace_id = ${r.workspaceId} and form_id = ${r.formId}
              and status = ${expected.status} and version = ${expected.version}
            for no key update)
          update responses set status = ${r.status}, answers = ${jsonParam(r.answers)}::jsonb,
                               meta = ${jsonParam(r.meta)}::jsonb, updated_at = ${r.updatedAt},
                               completed_at = ${r.completedAt}, version = ${r.version}
          from old where responses.id = old.id
          returning old.status, old.answers, old.meta`
        if (old === undefined) return "stale" as ResponseUpdate
        if (cap !== undefined) {
          const [row] = yield* sql<{ readonly n: number }>`
            select count(*)::int as n from responses
            where form_id = ${r.formId} and status = 'completed'`
          if ((row?.n ?? 0) > cap) return yield* new OverCap()
        }
        if (old.status === "completed") yield* applyContributions(sql, r.formId, old, -1)
        if (r.status === "completed") yield* applyContributions(sql, r.formId, r, 1)
        if (old.status === "completed") yield* recomputeExtremes(sql, r.formId, old)
        // Each job's key names this response and the write moved it out of the state that queues it.
        for (const job of options?.enqueue ?? [])
          yield* insertJob(sql, job).pipe(Effect.catchTag("JobAlreadyActive", Effect.die))
        return "updated" as ResponseUpdate
      })
      return orStorageError(
        sql
          .withTransaction(write)
          .pipe(Effect.catchTag("OverCap", () => Effect.succeed("full" as ResponseUpdate)))
      )
    },
    get: (workspaceId, formId, id) =>
      orStorageError(
        sql<ResponseRow>`select * from responses
                         where id = ${id} and form_id = ${formId} and workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toResponse))
        )
      ),
    list: (workspaceId, formId, query) =>
      orStorageError(
        Effect.gen(function* () {
          const after = yield* timeIdCursor.decode(query.cursor)
          const rows = yield* sql<ResponseRow>`
            select * from responses
            where form_id = ${formId} and workspace_id = ${workspaceId}
              ${query.status === undefined ? sql`` : sql`and status = ${query.status}`}
              ${
                query.flagged === undefined
                  ? sql``
                  : query.flagged
                    ? sql`and coalesce(meta #> '{quality,trapsMissed}', '[]'::jsonb) <> '[]'::jsonb`
                    : sql`and coalesce(meta #> '{quality,trapsMissed}', '[]'::jsonb) = '[]'::jsonb`
              }
              ${after === undefined ? sql`` : sql`and (created_at, id) < (${after.at}::timestamptz, ${after.id}::uuid)`}
            order by created_at desc, id desc
            limit ${query.limit + 1}`
          return toPage(rows, query.limit, toResponse, (row) => timeIdCursor.encode(row.created_at, row.id))
        })
      ),
    answerStats: (workspaceId, formId, options) =>
      orStorageError(readAnswerStats(sql, workspaceId, formId, options)),
    rebuildAnswerStats: (formId) => orStorageError(sql.withTransaction(rebuildAnswerStats(sql, formId))),
    // One range of the responses_resumable index (migration 0006), already in this order. Completed
    // responses (only for forms that allow editing) are outside that partial index: the form's
    // responses are read newest first for them, and the newer of the two rows wins.
    findResumable: (workspaceId, formId, query) => {
      const newest = (status: "partial" | "completed") =>
        sql<ResponseRow>`select * from responses
                         where form_id = ${formId} and meta ->> 'respondentKey' = ${query.respondentKey}
                           and ${status === "partial" ? sql`status = 'partial'` : sql`status = 'completed'`}
                           and workspace_id = ${workspaceId}
                           and form_version_id = ${query.formVersionId}
                         order by created_at desc, id desc
                         limit 1`
      return orStorageError(
        Effect.gen(function* () {
          const partial = yield* newest("partial")
          const completed = query.includeCompleted === true ? yield* newest("completed") : []
          const rows = [...partial, ...completed].sort(
            (a, b) => b.created_at.getTime() - a.created_at.getTime() || (b.id < a.id ? -1 : 1)
          )
          return Option.map(Option.fromNullishOr(rows[0]), toResponse)
        })
      )
    },
    respondentHistory: (workspaceId, formId, query) => {
      const byKey = sql`meta ? 'respondentKey' and meta ->> 'respondentKey' = ${query.respondentKey ?? ""}`
      const byClient = sql`meta ? 'clientHash' and meta ->> 'clientHash' = ${query.clientHash}
                            and created_at >= ${query.since}`
      return orStorageError(
        sql<{ key_total: number; key_completed: number; client_total: number; client_completed: number }>`
          select count(*) filter (where ${byKey})::int as key_total,
                 count(*) filter (where ${byKey} and status = 'completed')::int as key_completed,
                 count(*) filter (where ${byClient})::int as client_total,
                 count(*) filter (where ${byClient} and status = 'completed')::int as client_completed
          from responses
          where form_id = ${formId} and workspace_id = ${workspaceId} and ((${byKey}) or (${byClient}))`.pipe(
          Effect.map(([row]) => ({
            byKey: { total: row?.key_total ?? 0, completed: row?.key_completed ?? 0 },
            byClient: { total: row?.client_total ?? 0, completed: row?.client_completed ?? 0 }
          }))
        )
      )
    },
    activity: (workspaceId, formId, cohort) =>
      orStorageError(
        Effect.gen(function* () {
          const scope = sql`form_id = ${formId} and workspace_id = ${workspaceId}
                            and created_at >= ${cohort.from} and created_at < ${cohort.to}`
          const [totals] = yield* sql<{
            started: number
            completed: number
            average: number | null
            median: number | null
          }>`
            select count(*)::int as started,
                   count(*) filter (where status = 'completed')::int as completed,
                   avg(extract(epoch from completed_at - created_at))::float8 as average,
                   percentile_cont(0.5) within group (order by extract(epoch from completed_at - created_at))
                     filter (where status = 'completed')::float8 as median
            from responses where ${scope}`
          const daily = yield* sql<{ day: string; started: number; completed: number }>`
            select to_char(date_trunc('day', created_at at time zone 'UTC'), 'YYYY-MM-DD') as day,
                   count(*)::int as started, count(*) filter (where status = 'completed')::int as completed
            from responses where ${scope}
            group by 1 order by 1`
          return {
            started: totals?.started ?? 0,
            completed: totals?.completed ?? 0,
            averageCompletionSeconds: totals?.average ?? null,
            medianCompletionSeconds: totals?.median ?? null,
            daily: daily.map((d) => ({ day: d.day, started: d.started, completed: d.completed }))
          }
        })
      ),
    interviewStats: (workspaceId, formId) =>
      orStorageError(
        Effect.gen(function* () {
          const scope = sql`r.form_id = ${formId} and r.workspace_id = ${workspaceId}`
          const [totals] = yield* sql<{
            started: number
            engaged: number
            completed: number
            exchanges: number | null
          }>`
            select count(*)::int as started,
                   count(*) filter (where jsonb_path_exists(r.meta, '$.interview.transcript[*] ? (@.role == "user")'))::int as engaged,
                   count(*) filter (where r.status = 'completed')::int as completed,
                   avg((r.meta #>> '{interview,quality,exchangeCount}')::float8)
                     filter (where jsonb_typeof(r.meta #> '{interview,quality,exchangeCount}') = 'number') as exchanges
            from responses r where ${scope}`
          const analysis = yield* sql<{ status: string; n: number }>`
            select coalesce(r.meta #>> '{interview,analysisStatus}', 'pending') as status, count(*)::int as n
            from responses r where ${scope} and r.status = 'completed'
            group by 1`
          const codes = yield* sql<{ code: string; responses: number; mentions: number }>`
            select coalesce(i ->> 'code', i ->> 'codeId') as code, count(distinct r.id)::int as responses,
                   count(*)::int as mentions
            from responses r
              cross join lateral jsonb_array_elements(
                case when jsonb_typeof(r.meta #> '{interview,insights}') = 'array'
                     then r.meta #> '{interview,insights}' else '[]'::jsonb end) i
            where ${scope} and r.status = 'completed' and jsonb_typeof(i) = 'object'
              and coalesce(i ->> 'code', i ->> 'codeId') is not null
            group by 1 order by responses desc, code`
          const emergent = yield* sql<{ capture_type: string; responses: number; mentions: number }>`
            select e ->> 'captureType' as capture_type, count(distinct r.id)::int as responses,
                   count(*)::int as mentions
            from responses r
              cross join lateral jsonb_array_elements(
                case when jsonb_typeof(r.meta #> '{interview,runtime,emergent}') = 'array'
                     then r.meta #> '{interview,runtime,emergent}' else '[]'::jsonb end) e
            where ${scope} and r.status = 'completed' and jsonb_typeof(e) = 'object'
              and jsonb_typeof(e -> 'captureType') = 'string'
            group by 1 order by responses desc, (e ->> 'captureType') collate "C"`
          return {
            started: totals?.started ?? 0,
            engaged: totals?.engaged ?? 0,
            completed: totals?.completed ?? 0,
            analysis: Object.fromEntries(analysis.map((a) => [a.status, a.n])),
            codes: codes.map((c) => ({ code: c.code, responses: c.responses, mentions: c.mentions })),
            averageExchangeCount: totals?.exchanges ?? null,
            emergent: emergent.map((e) => ({
              captureType: e.capture_type,
              responses: e.responses,
              mentions: e.mentions
            }))
          }
        })
      ),
    // Each response's assigned ids, joined with its first answer for that id (an id is asked once).
    validationStats: (workspaceId, formId) =>
      orStorageError(
        Effect.map(
          sql<{ field_id: string; assigned: number; answered: number; agreed: number }>`
            select a.field_id, count(*)::int as assigned,
                   count(*) filter (where jsonb_typeof(ans.agrees) = 'boolean')::int as answered,
                   count(*) filter (where ans.agrees = 'true'::jsonb)::int as agreed
            from responses r
              cross join lateral (
                select distinct x as field_id
                from jsonb_array_elements_text(
                  case when jsonb_typeof(r.meta #> '{interview,runtime,validation,assigned}') = 'array'
                       then r.meta #> '{interview,runtime,validation,assigned}' else '[]'::jsonb end) x) a
              left join lateral (
                select v -> 'agrees' as agrees
                from jsonb_array_elements(
                  case when jsonb_typeof(r.meta #> '{interview,runtime,validation,answers}') = 'array'
                       then r.meta #> '{interview,runtime,validation,answers}' else '[]'::jsonb end)
                  with ordinality as e(v, n)
                where jsonb_typeof(v) = 'object' and v ->> 'fieldId' = a.field_id
                order by n limit 1) ans on true
            where r.form_id = ${formId} and r.workspace_id = ${workspaceId}
            group by a.field_id order by a.field_id collate "C"`,
          (rows) =>
            rows.map((row) => ({
              fieldId: row.field_id,
              assigned: row.assigned,
              answered: row.answered,
              agreed: row.agreed
            }))
        )
      ),
    // Under a cap, the response row is locked first, so concurrent uploads to it count and insert one
    // at a time and the count always sees every earlier file.
    insertFile: (f, maxPerBlock) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            if (maxPerBlock !== undefined) {
              yield* sql`select 1 from responses where id = ${f.responseId} for no key update`
              const [row] = yield* sql<{ readonly n: number }>`
                select count(*)::int as n from response_files
                where response_id = ${f.responseId} and block_id = ${f.blockId}`
              if ((row?.n ?? 0) >= maxPerBlock) return false
            }
            yield* sql`insert into response_files (id, workspace_id, form_id, response_id, block_id, key, filename,
                                            content_type, size, created_at)
                values (${f.id}, ${f.workspaceId}, ${f.formId}, ${f.responseId}, ${f.blockId}, ${f.key},
                        ${f.filename}, ${f.contentType}, ${f.size}, ${f.createdAt})`
            return true
          })
        )
      ),
    getFile: (workspaceId, formId, fileId) =>
      orStorageError(
        sql<FileRow>`select * from response_files
                     where id = ${fileId} and form_id = ${formId} and workspace_id = ${workspaceId}`.pipe(
          Effect.map((rows) => Option.map(Option.fromNullishOr(rows[0]), toFile))
        )
      ),
    listFiles: (workspaceId, formId, responseIds) =>
      responseIds.length === 0
        ? Effect.succeed([])
        : orStorageError(
            sql<FileRow>`select * from response_files
                         where form_id = ${formId} and workspace_id = ${workspaceId}
                           and ${sql.in("response_id", responseIds)}
                         order by created_at, id`.pipe(Effect.map((rows) => rows.map(toFile)))
          ),
    // The row is locked first, so an upload racing the delete waits for it and then finds no row,
    // and a completion racing it either committed before (its answers leave the aggregates here) or
    // finds the row gone. Files go before the row they reference.
    delete: (workspaceId, formId, id) =>
      orStorageError(
        sql.withTransaction(
          Effect.gen(function* () {
            const [locked] = yield* sql<{ readonly id: string }>`
              select id from responses
              where id = ${id} and workspace_id = ${workspaceId} and form_id = ${formId}
              for update`
            if (locked === undefined) return Option.none<ReadonlyArray<ResponseFileRecord>>()
            const files = yield* sql<FileRow>`
              delete from response_files where response_id = ${id} returning *`
            const [old] = yield* sql<Pick<ResponseRow, "status" | "answers" | "meta">>`
              delete from responses where id = ${id} returning status, answers, meta`
            if (old?.status === "completed") {
              yield* applyContributions(sql, formId, old, -1)
              yield* recomputeExtremes(sql, formId, old)
            }
            return Option.some(
              files.map(toFile).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
            )
          })
        )
      ),
    startedBefore: (workspaceId, formId, before, limit) =>
      orStorageError(
        sql<{ readonly id: string }>`
          select id from responses
          where form_id = ${formId} and workspace_id = ${workspaceId} and created_at < ${before}
          order by created_at, id
          limit ${limit}`.pipe(Effect.map((rows) => rows.map((r) => r.id)))
      ),
    stuckInterviewAnalyses: (noJobCompletedBefore, limit) =>
      orStorageError(
        // The pending rows come from the partial index responses_pending_interview_analysis
        // (migration 0018); their jobs from jobs_by_resource.
        sql<{
          readonly workspace_id: string
          readonly form_id: string
          readonly id: string
          readonly completed_at: Date
        }>`
          select r.workspace_id, r.form_id, r.id, r.completed_at from responses r
          where r.status = 'completed' and (r.meta -> 'interview' ->> 'analysisStatus') = 'pending'
            and not exists (
              select 1 from jobs j where j.resource_id = r.id and j.type = 'interview_analysis'
                and j.tenant_id = r.workspace_id and j.status in ('queued', 'running'))
            and (r.completed_at < ${noJobCompletedBefore} or exists (
              select 1 from jobs j where j.resource_id = r.id and j.type = 'interview_analysis'
                and j.tenant_id = r.workspace_id))
          order by r.completed_at, r.id
          limit ${limit}`.pipe(
          Effect.map((rows) =>
            rows.map((r) => ({
              workspaceId: r.workspace_id,
              formId: r.form_id,
              responseId: r.id,
              completedAt: new Date(r.completed_at)
            }))
          )
        )
      ),
    count: (workspaceId, formId, status) =>
      orStorageError(
        sql<{ readonly n: number }>`
          select count(*)::int as n from responses
          where form_id = ${formId} and workspace_id = ${workspaceId}
            ${status === undefined ? sql`` : sql`and status = ${status}`}`.pipe(
          Effect.map((rows) => rows[0]?.n ?? 0)
        )
      )
  })
})
