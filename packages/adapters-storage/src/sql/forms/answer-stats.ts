// Incrementally kept AnswerStats: one row per (form, block, kind, token) with counts, numeric sums
// and extremes, updated in the transaction that completes (or edits) a response. Summaries then
// read a few hundred rows instead of exploding every stored answer (forms-api responses/summary
// at 100,000 responses). `rebuildAnswerStats` recomputes them from the responses themselves.
import type { SqlClient } from "effect/sql"
import {
  type AnswerStatContribution,
  answerContributions,
  type AnswerStats,
  QUALITY_STAT,
  type ResponseRecord
} from "@folio/domain"
import { Effect } from "effect"

type Sql = SqlClient.SqlClient

const KINDS = { block: 0, string: 1, element: 2, score: 3 } as const

/** Adds (sign 1) or removes (sign -1) one completed response's contributions. */
export const applyContributions = (
  sql: Sql,
  formId: string,
  record: Pick<ResponseRecord, "answers" | "meta">,
  sign: 1 | -1
) =>
  Effect.gen(function* () {
    const rows = answerContributions(record.answers, record.meta).map((c: AnswerStatContribution) => ({
      block_id: c.blockId,
      kind: c.kind,
      token: c.token,
      n: sign * c.n,
      num_n: sign * c.numN,
      num_sum: sign * c.numSum,
      // Extremes only grow on addition; removals are repaired by recomputeExtremes.
      num_min: sign === 1 ? c.num : null,
      num_max: sign === 1 ? c.num : null,
      pos_sum: sign * c.posSum
    }))
    if (rows.length === 0) return []
    // One statement, rows in key order, so concurrent completions lock shared rows in the same order.
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select ${formId}::uuid, x.block_id, x.kind, x.token, x.n, x.num_n, x.num_sum, x.num_min, x.num_max, x.pos_sum
      from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
        as x(block_id text, kind smallint, token text, n bigint, num_n bigint, num_sum float8,
             num_min float8, num_max float8, pos_sum float8)
      order by x.block_id, x.kind, x.token
      on conflict (form_id, block_id, kind, token) do update set
        n = answer_stats.n + excluded.n,
        num_n = answer_stats.num_n + excluded.num_n,
        num_sum = answer_stats.num_sum + excluded.num_sum,
        num_min = least(answer_stats.num_min, excluded.num_min),
        num_max = greatest(answer_stats.num_max, excluded.num_max),
        pos_sum = answer_stats.pos_sum + excluded.pos_sum`
    return rows
  })

/** After a removal, the extremes of the touched numeric blocks and scores are recomputed exactly. */
export const recomputeExtremes = (
  sql: Sql,
  formId: string,
  record: Pick<ResponseRecord, "answers" | "meta">
) =>
  Effect.gen(function* () {
    const numeric = answerContributions(record.answers, record.meta).filter(
      (c) => c.num !== null && (c.kind === KINDS.block || c.kind === KINDS.score)
    )
    for (const c of numeric) {
      if (c.kind === KINDS.block) {
        yield* sql`
          update answer_stats s set num_min = m.mn, num_max = m.mx
          from (select min((r.answers ->> ${c.blockId})::float8) as mn, max((r.answers ->> ${c.blockId})::float8) as mx
                from responses r
                where r.form_id = ${formId} and r.status = 'completed'
                  and jsonb_typeof(r.answers -> ${c.blockId}) = 'number') m
          where s.form_id = ${formId} and s.block_id = ${c.blockId} and s.kind = 0 and s.token = ''`
      } else {
        yield* sql`
          update answer_stats s set num_min = m.mn, num_max = m.mx
          from (select min((x ->> 'score')::float8) as mn, max((x ->> 'score')::float8) as mx
                from responses r cross join lateral jsonb_array_elements(coalesce(r.meta -> 'scores', '[]'::jsonb)) x
                where r.form_id = ${formId} and r.status = 'completed' and x ->> 'id' = ${c.blockId}
                  and jsonb_typeof(x -> 'score') = 'number') m
          where s.form_id = ${formId} and s.block_id = ${c.blockId} and s.kind = 3 and s.token = ''`
      }
    }
  })

/** Recomputes the stats of one form (or of every form) from its completed responses. */
export const rebuildAnswerStats = (sql: Sql, formId: string | undefined) =>
  Effect.gen(function* () {
    const forms = formId === undefined ? sql`true` : sql`form_id = ${formId}`
    const scope =
      formId === undefined
        ? sql`r.status = 'completed'`
        : sql`r.status = 'completed' and r.form_id = ${formId}`
    yield* sql`delete from answer_stats where ${forms}`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, e.key, 0, '', count(*),
             count(*) filter (where jsonb_typeof(e.value) = 'number'),
             coalesce(sum((e.value #>> '{}')::float8) filter (where jsonb_typeof(e.value) = 'number'), 0),
             min((e.value #>> '{}')::float8) filter (where jsonb_typeof(e.value) = 'number'),
             max((e.value #>> '{}')::float8) filter (where jsonb_typeof(e.value) = 'number'), 0
      from responses r cross join lateral jsonb_each(r.answers) e
      where ${scope}
      group by r.form_id, e.key`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, e.key, 1, e.value #>> '{}', count(*), 0, 0, null, null, 0
      from responses r cross join lateral jsonb_each(r.answers) e
      where ${scope} and jsonb_typeof(e.value) = 'string'
      group by r.form_id, e.key, e.value #>> '{}'`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, e.key, 2, a.v, count(*), 0, 0, null, null, sum(a.pos)
      from responses r cross join lateral jsonb_each(r.answers) e
           cross join lateral jsonb_array_elements_text(e.value) with ordinality as a(v, pos)
      where ${scope} and jsonb_typeof(e.value) = 'array'
      group by r.form_id, e.key, a.v`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, s ->> 'id', 3, '', count(*),
             count(*) filter (where jsonb_typeof(s -> 'score') = 'number'),
             coalesce(sum((s ->> 'score')::float8) filter (where jsonb_typeof(s -> 'score') = 'number'), 0),
             min((s ->> 'score')::float8) filter (where jsonb_typeof(s -> 'score') = 'number'),
             max((s ->> 'score')::float8) filter (where jsonb_typeof(s -> 'score') = 'number'), 0
      from responses r cross join lateral jsonb_array_elements(coalesce(r.meta -> 'scores', '[]'::jsonb)) s
      where ${scope} and jsonb_typeof(s -> 'id') = 'string'
      group by r.form_id, s ->> 'id'`
    // Cutoff labels and quality traps: the other kind-3 rows of answerContributions.
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, s ->> 'id', 3, s ->> 'label', count(*), 0, 0, null, null, 0
      from responses r cross join lateral jsonb_array_elements(coalesce(r.meta -> 'scores', '[]'::jsonb)) s
      where ${scope} and jsonb_typeof(s -> 'id') = 'string' and jsonb_typeof(s -> 'label') = 'string'
        and s ->> 'label' <> ''
      group by r.form_id, s ->> 'id', s ->> 'label'`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, k.block_id, 3, '', count(*), 0, 0, null, null, 0
      from responses r
           cross join lateral (values (${QUALITY_STAT.checked}::text, true),
                                      (${QUALITY_STAT.flagged}::text, r.meta #> '{quality,trapsMissed}' <> '[]'::jsonb)
                              ) as k(block_id, counts)
      where ${scope} and jsonb_typeof(r.meta #> '{quality,trapsMissed}') = 'array' and k.counts
      group by r.form_id, k.block_id`
    yield* sql`
      insert into answer_stats (form_id, block_id, kind, token, n, num_n, num_sum, num_min, num_max, pos_sum)
      select r.form_id, ${QUALITY_STAT.trap}::text, 3, t.id, count(distinct r.id), 0, 0, null, null, 0
      from responses r cross join lateral jsonb_array_elements_text(r.meta #> '{quality,trapsMissed}') t(id)
      where ${scope} and jsonb_typeof(r.meta #> '{quality,trapsMissed}') = 'array'
      group by r.form_id, t.id`
  })

interface StatRow {
  readonly block_id: string
  readonly kind: number
  readonly token: string
  readonly n: number
  readonly num_n: number
  readonly num_sum: number
  readonly num_min: number | null
  readonly num_max: number | null
  readonly pos_sum: number
}

const isQualityRow = (r: StatRow) => r.block_id.startsWith("quality:")
const qualityCount = (rows: ReadonlyArray<StatRow>, blockId: string) =>
  rows.find((r) => r.kind === KINDS.score && r.block_id === blockId)?.n ?? 0

/** The AnswerStats of a form from the kept rows, plus recent text samples from the newest responses. */
export const readAnswerStats = (
  sql: Sql,
  workspaceId: string,
  formId: string,
  options: { readonly sampleBlockIds: ReadonlyArray<string>; readonly samplesPerBlock: number }
) =>
  Effect.gen(function* () {
    const rows = yield* sql<StatRow>`
      select s.block_id, s.kind, s.token, s.n::float8 as n, s.num_n::float8 as num_n, s.num_sum, s.num_min,
             s.num_max, s.pos_sum
      from answer_stats s join forms f on f.id = s.form_id
      where s.form_id = ${formId} and f.workspace_id = ${workspaceId} and s.n > 0`
    // Samples come from the newest completed responses (an index walk), not from every answer.
    const window = Math.max(50, options.samplesPerBlock * 20)
    const samples =
      options.sampleBlockIds.length === 0
        ? []
        : yield* sql<{ block_id: string; text: string }>`
            select block_id, text from (
              select e.key as block_id, e.value #>> '{}' as text,
                     row_number() over (partition by e.key order by r.completed_at desc, r.id desc) as k
              from (select id, answers, completed_at from responses
                    where form_id = ${formId} and workspace_id = ${workspaceId} and status = 'completed'
                    order by completed_at desc, id desc limit ${window}) r
                   cross join lateral jsonb_each(r.answers) e
              where jsonb_typeof(e.value) = 'string' and ${sql.in("e.key", options.sampleBlockIds)}
            ) ranked
            where k <= ${options.samplesPerBlock}
            order by block_id, k`
    const stats: AnswerStats = {
      blocks: rows
        .filter((r) => r.kind === KINDS.block)
        .map((r) => ({
          blockId: r.block_id,
          answered: r.n,
          average: r.num_n > 0 ? r.num_sum / r.num_n : null,
          min: r.num_n > 0 ? r.num_min : null,
          max: r.num_n > 0 ? r.num_max : null
        })),
      tokens: rows
        .filter((r) => r.kind === KINDS.string || r.kind === KINDS.element)
        .map((r) => ({
          blockId: r.block_id,
          token: r.token,
          count: r.n,
          avgPosition: r.kind === KINDS.element ? r.pos_sum / r.n : null
        })),
      samples: samples.map((x) => ({ blockId: x.block_id, text: x.text })),
      scores: rows
        .filter((r) => r.kind === KINDS.score && r.token === "" && !isQualityRow(r))
        .map((r) => ({
          id: r.block_id,
          count: r.num_n,
          average: r.num_n > 0 ? r.num_sum / r.num_n : null,
          min: r.num_n > 0 ? r.num_min : null,
          max: r.num_n > 0 ? r.num_max : null
        })),
      scoreLabels: rows
        .filter((r) => r.kind === KINDS.score && r.token !== "" && !isQualityRow(r))
        .map((r) => ({ id: r.block_id, label: r.token, count: r.n })),
      quality: {
        checked: qualityCount(rows, QUALITY_STAT.checked),
        flagged: qualityCount(rows, QUALITY_STAT.flagged),
        traps: rows
          .filter((r) => r.kind === KINDS.score && r.block_id === QUALITY_STAT.trap)
          .map((r) => ({ blockId: r.token, missed: r.n }))
      }
    }
    return stats
  })
