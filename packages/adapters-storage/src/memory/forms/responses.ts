// In-memory ResponseRepository: the twin of sql/forms/responses.ts. It aggregates on every read where SQL
// keeps aggregates, so there is nothing to rebuild.
import {
  type ResponseRecord,
  ResponseRepository,
  type ResponseUpdate,
  StorageError,
  storedQualityOf
} from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { newJobRecord } from "../kernel/jobs.js"
import { pageDescending } from "../keyset.js"
import { completedCount, MemoryStore } from "../store.js"

/** A row of the given form of the given workspace, or none: rows of other tenants never show. */
const inForm = <A extends { readonly workspaceId: string; readonly formId: string }>(
  row: A | undefined,
  workspaceId: string,
  formId: string
): Option.Option<A> =>
  Option.fromNullishOr(
    row !== undefined && row.workspaceId === workspaceId && row.formId === formId ? row : undefined
  )

/** Whether a response missed a quality trap (the SQL stores test the same JSON path). */
const isFlagged = (r: ResponseRecord) => (storedQualityOf(r.meta)?.trapsMissed.length ?? 0) > 0

export const makeResponseRepository = Effect.map(Effect.service(MemoryStore), (tables) => {
  const { responses, responseFiles, jobs } = tables
  /** Every response of one form, in insertion order. */
  const ofForm = (workspaceId: string, formId: string) =>
    [...responses.values()].filter((r) => r.workspaceId === workspaceId && r.formId === formId)
  return ResponseRepository.of({
    insert: (response) => Effect.sync(() => void responses.set(response.id, { ...response, version: 1 })),
    // The same compare-and-set as SQL; one synchronous step, so nothing can interleave with it.
    update: (response, expected, options) =>
      Effect.sync((): ResponseUpdate => {
        const current = responses.get(response.id)
        if (
          current === undefined ||
          current.workspaceId !== response.workspaceId ||
          current.formId !== response.formId ||
          current.status !== expected.status ||
          current.version !== expected.version
        )
          return "stale"
        const completes = expected.status === "partial" && response.status === "completed"
        if (
          completes &&
          expected.maxCompleted !== undefined &&
          completedCount(tables, response.formId) >= expected.maxCompleted
        )
          return "full"
        responses.set(response.id, response)
        for (const job of options?.enqueue ?? []) jobs.set(job.id, newJobRecord(job))
        return "updated"
      }),
    get: (workspaceId, formId, id) => Effect.sync(() => inForm(responses.get(id), workspaceId, formId)),
    list: (workspaceId, formId, query) =>
      Effect.suspend(() => {
        const rows = ofForm(workspaceId, formId).filter(
          (r) =>
            (query.status === undefined || r.status === query.status) &&
            (query.flagged === undefined || isFlagged(r) === query.flagged)
        )
        return Effect.fromResult(
          pageDescending(rows, (r) => [r.createdAt.getTime(), r.id], ["number", "string"], query)
        )
      }),
    answerStats: (workspaceId, formId, options) =>
      Effect.sync(() => {
        const rows = ofForm(workspaceId, formId)
          .filter((r) => r.status === "completed")
          .sort(
            (a, b) =>
              (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0) || (b.id < a.id ? -1 : 1)
          )
        const blocks = new Map<string, { answered: number; nums: Array<number> }>()
        const tokens = new Map<
          string,
          { blockId: string; token: string; count: number; positions: Array<number> }
        >()
        const samples: Array<{ blockId: string; text: string }> = []
        const scores = new Map<string, Array<number>>()
        const scoreLabels = new Map<string, { id: string; label: string; count: number }>()
        const quality = { checked: 0, flagged: 0, traps: new Map<string, number>() }
        for (const r of rows) {
          const stored = storedQualityOf(r.meta)
          if (stored !== undefined) {
            quality.checked++
            if (stored.trapsMissed.length > 0) quality.flagged++
            for (const id of new Set(stored.trapsMissed))
              quality.traps.set(id, (quality.traps.get(id) ?? 0) + 1)
          }
          for (const [blockId, value] of Object.entries(r.answers)) {
            const b = blocks.get(blockId) ?? { answered: 0, nums: [] }
            b.answered++
            if (typeof value === "number") b.nums.push(value)
            blocks.set(blockId, b)
            const add = (token: string, position: number | null) => {
              const key = `${blockId}\u0000${token}\u0000${position === null ? "s" : "a"}`
              const t = tokens.get(key) ?? { blockId, token, count: 0, positions: [] }
              t.count++
              if (position !== null) t.positions.push(position)
              tokens.set(key, t)
            }
            if (typeof value === "string") {
              add(value, null)
              if (
                options.sampleBlockIds.includes(blockId) &&
                samples.filter((x) => x.blockId === blockId).length < options.samplesPerBlock
              ) {
                samples.push({ blockId, text: value })
              }
            }
            if (Array.isArray(value)) {
              for (const [i, v] of value.entries()) add(String(v), i + 1)
            }
          }
          const storedScores = r.meta.scores
          if (Array.isArray(storedScores)) {
            for (const s of storedScores as Array<{ id?: unknown; score?: unknown; label?: unknown }>) {
              if (typeof s.id !== "string") continue
              const list = scores.get(s.id) ?? []
              if (typeof s.score === "number") list.push(s.score)
              scores.set(s.id, list)
              if (typeof s.label === "string" && s.label !== "") {
                const key = `${s.id}\u0000${s.label}`
                const entry = scoreLabels.get(key) ?? { id: s.id, label: s.label, count: 0 }
                entry.count++
                scoreLabels.set(key, entry)
              }
            }
          }
        }
        const avg = (xs: ReadonlyArray<number>) =>
          xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length
        return {
          blocks: [...blocks].map(([blockId, b]) => ({
            blockId,
            answered: b.answered,
            average: avg(b.nums),
            min: b.nums.length === 0 ? null : Math.min(...b.nums),
            max: b.nums.length === 0 ? null : Math.max(...b.nums)
          })),
          tokens: [...tokens.values()].map((t) => ({
            blockId: t.blockId,
            token: t.token,
            count: t.count,
            avgPosition: t.positions.length === 0 ? null : avg(t.positions)
          })),
          samples,
          scores: [...scores].map(([id, xs]) => ({
            id,
            count: xs.length,
            average: avg(xs),
            min: xs.length === 0 ? null : Math.min(...xs),
            max: xs.length === 0 ? null : Math.max(...xs)
          })),
          scoreLabels: [...scoreLabels.values()],
          quality: {
            checked: quality.checked,
            flagged: quality.flagged,
            traps: [...quality.traps].map(([blockId, missed]) => ({ blockId, missed }))
          }
        }
      }),
    // The memory store aggregates on every read; there is nothing kept to rebuild.
    rebuildAnswerStats: () => Effect.void,
    findResumable: (workspaceId, formId, query) =>
      Effect.sync(() => {
        const newest = ofForm(workspaceId, formId)
          .filter(
            (r) =>
              (r.status === "partial" || (query.includeCompleted === true && r.status === "completed")) &&
              r.formVersionId === query.formVersionId &&
              r.meta.respondentKey === query.respondentKey
          )
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (b.id < a.id ? -1 : 1))[0]
        return Option.fromNullishOr(newest)
      }),
    respondentHistory: (workspaceId, formId, query) =>
      Effect.sync(() => {
        const mine = ofForm(workspaceId, formId)
        const byKey = mine.filter(
          (r) => query.respondentKey !== null && r.meta.respondentKey === query.respondentKey
        )
        const byClient = mine.filter(
          (r) => r.meta.clientHash === query.clientHash && r.createdAt.getTime() >= query.since.getTime()
        )
        const completed = (rs: ReadonlyArray<ResponseRecord>) =>
          rs.filter((r) => r.status === "completed").length
        return {
          byKey: { total: byKey.length, completed: completed(byKey) },
          byClient: { total: byClient.length, completed: completed(byClient) }
        }
      }),
    activity: (workspaceId, formId, cohort) =>
      Effect.sync(() => {
        const rows = ofForm(workspaceId, formId).filter(
          (r) => r.createdAt.getTime() >= cohort.from.getTime() && r.createdAt.getTime() < cohort.to.getTime()
        )
        const durations = rows
          .filter((r) => r.status === "completed" && r.completedAt !== null)
          .map((r) => ((r.completedAt?.getTime() ?? 0) - r.createdAt.getTime()) / 1000)
          .sort((a, b) => a - b)
        const median = () => {
          const n = durations.length
          if (n === 0) return null
          const at = (n - 1) / 2
          const lo = durations[Math.floor(at)] ?? 0
          const hi = durations[Math.ceil(at)] ?? 0
          return lo + (hi - lo) * (at - Math.floor(at))
        }
        const days = new Map<string, { started: number; completed: number }>()
        for (const r of rows) {
          const day = r.createdAt.toISOString().slice(0, 10)
          const d = days.get(day) ?? { started: 0, completed: 0 }
          d.started++
          if (r.status === "completed") d.completed++
          days.set(day, d)
        }
        return {
          started: rows.length,
          completed: durations.length,
          averageCompletionSeconds:
            durations.length === 0 ? null : durations.reduce((a, b) => a + b, 0) / durations.length,
          medianCompletionSeconds: median(),
          daily: [...days].sort(([a], [b]) => (a < b ? -1 : 1)).map(([day, d]) => ({ day, ...d }))
        }
      }),
    interviewStats: (workspaceId, formId) =>
      Effect.sync(() => {
        const rows = ofForm(workspaceId, formId)
        const interviewOf = (r: ResponseRecord) =>
          (typeof r.meta.interview === "object" && r.meta.interview !== null ? r.meta.interview : {}) as {
            transcript?: unknown
            analysisStatus?: unknown
            insights?: unknown
            quality?: { exchangeCount?: unknown }
            runtime?: { emergent?: unknown }
          }
        const completed = rows.filter((r) => r.status === "completed")
        const analysis: Record<string, number> = {}
        const codes = new Map<string, { responses: number; mentions: number }>()
        const emergent = new Map<string, { responses: number; mentions: number }>()
        for (const r of completed) {
          const items = interviewOf(r).runtime?.emergent
          const types = (Array.isArray(items) ? items : []).flatMap((x) => {
            const t =
              typeof x === "object" && x !== null ? (x as { captureType?: unknown }).captureType : null
            return typeof t === "string" ? [t] : []
          })
          for (const t of new Set(types)) {
            const e = emergent.get(t) ?? { responses: 0, mentions: 0 }
            e.responses++
            e.mentions += types.filter((x) => x === t).length
            emergent.set(t, e)
          }
        }
        for (const r of completed) {
          const i = interviewOf(r)
          const status = typeof i.analysisStatus === "string" ? i.analysisStatus : "pending"
          analysis[status] = (analysis[status] ?? 0) + 1
          const seen = new Set<string>()
          for (const x of Array.isArray(i.insights) ? i.insights : []) {
            if (typeof x !== "object" || x === null) continue
            const o = x as { code?: unknown; codeId?: unknown }
            const raw = o.code ?? o.codeId
            if (raw === undefined || raw === null) continue
            const code = typeof raw === "string" ? raw : JSON.stringify(raw)
            const c = codes.get(code) ?? { responses: 0, mentions: 0 }
            c.mentions++
            if (!seen.has(code)) c.responses++
            seen.add(code)
            codes.set(code, c)
          }
        }
        const exchanges = rows
          .map((r) => interviewOf(r).quality?.exchangeCount)
          .filter((x): x is number => typeof x === "number")
        return {
          started: rows.length,
          engaged: rows.filter((r) => {
            const t = interviewOf(r).transcript
            return Array.isArray(t) && t.some((turn) => (turn as { role?: unknown })?.role === "user")
          }).length,
          completed: completed.length,
          analysis,
          codes: [...codes]
            .map(([code, c]) => ({ code, ...c }))
            .sort((a, b) => b.responses - a.responses || (a.code < b.code ? -1 : 1)),
          averageExchangeCount:
            exchanges.length === 0 ? null : exchanges.reduce((a, b) => a + b, 0) / exchanges.length,
          emergent: [...emergent]
            .map(([captureType, e]) => ({ captureType, ...e }))
            .sort((a, b) => b.responses - a.responses || (a.captureType < b.captureType ? -1 : 1))
        }
      }),
    validationStats: (workspaceId, formId) =>
      Effect.sync(() => {
        const items = new Map<string, { assigned: number; answered: number; agreed: number }>()
        for (const r of ofForm(workspaceId, formId)) {
          const interview = r.meta.interview as
            | { runtime?: { validation?: { assigned?: unknown; answers?: unknown } } }
            | undefined
          const validation = interview?.runtime?.validation
          const assigned = Array.isArray(validation?.assigned) ? validation.assigned : []
          const answers = (Array.isArray(validation?.answers) ? validation.answers : []) as Array<{
            fieldId?: unknown
            agrees?: unknown
          }>
          for (const id of new Set(assigned.filter((x): x is string => typeof x === "string"))) {
            const item = items.get(id) ?? { assigned: 0, answered: 0, agreed: 0 }
            const answer = answers.find((a) => a?.fieldId === id)
            item.assigned++
            if (typeof answer?.agrees === "boolean") item.answered++
            if (answer?.agrees === true) item.agreed++
            items.set(id, item)
          }
        }
        return [...items]
          .map(([fieldId, item]) => ({ fieldId, ...item }))
          .sort((a, b) => (a.fieldId < b.fieldId ? -1 : 1))
      }),
    insertFile: (file, maxPerBlock) =>
      Effect.suspend(() => {
        const response = responses.get(file.responseId)
        if (response === undefined || response.formId !== file.formId)
          return Effect.fail(new StorageError({ message: "response_files: unknown response" }))
        if ([...responseFiles.values()].some((f) => f.key === file.key))
          return Effect.fail(new StorageError({ message: "response_files: duplicate key" }))
        if (maxPerBlock !== undefined) {
          const held = [...responseFiles.values()].filter(
            (f) => f.responseId === file.responseId && f.blockId === file.blockId
          ).length
          if (held >= maxPerBlock) return Effect.succeed(false)
        }
        responseFiles.set(file.id, file)
        return Effect.succeed(true)
      }),
    getFile: (workspaceId, formId, fileId) =>
      Effect.sync(() => inForm(responseFiles.get(fileId), workspaceId, formId)),
    listFiles: (workspaceId, formId, responseIds) =>
      Effect.sync(() => {
        const wanted = new Set(responseIds)
        return [...responseFiles.values()]
          .filter((f) => f.workspaceId === workspaceId && f.formId === formId && wanted.has(f.responseId))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      }),
    // One synchronous step, like update: a racing write lands wholly before or finds the row gone.
    delete: (workspaceId, formId, id) =>
      Effect.sync(() => {
        const found = inForm(responses.get(id), workspaceId, formId)
        if (Option.isNone(found)) return Option.none()
        const files = [...responseFiles.values()]
          .filter((f) => f.responseId === id)
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        for (const f of files) responseFiles.delete(f.id)
        responses.delete(id)
        return Option.some(files)
      }),
    startedBefore: (workspaceId, formId, before, limit) =>
      Effect.sync(() =>
        ofForm(workspaceId, formId)
          .filter((r) => r.createdAt.getTime() < before.getTime())
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          .slice(0, limit)
          .map((r) => r.id)
      ),
    stuckInterviewAnalyses: (noJobCompletedBefore, limit) =>
      Effect.sync(() => {
        const analysesOf = (r: ResponseRecord) =>
          [...jobs.values()].filter(
            (j) => j.type === "interview_analysis" && j.resourceId === r.id && j.tenantId === r.workspaceId
          )
        return [...responses.values()]
          .filter((r) => {
            const pending =
              r.status === "completed" &&
              (r.meta.interview as { analysisStatus?: unknown } | undefined)?.analysisStatus === "pending"
            if (!pending) return false
            const analyses = analysesOf(r)
            if (analyses.some((j) => j.status === "queued" || j.status === "running")) return false
            return analyses.length > 0 || (r.completedAt ?? r.updatedAt) < noJobCompletedBefore
          })
          .sort(
            (a, b) =>
              (a.completedAt?.getTime() ?? 0) - (b.completedAt?.getTime() ?? 0) || (a.id < b.id ? -1 : 1)
          )
          .slice(0, limit)
          .map((r) => ({
            workspaceId: r.workspaceId,
            formId: r.formId,
            responseId: r.id,
            completedAt: r.completedAt ?? r.updatedAt
          }))
      }),
    count: (workspaceId, formId, status) =>
      Effect.sync(
        () => ofForm(workspaceId, formId).filter((r) => status === undefined || r.status === status).length
      )
  })
})

export const MemoryResponseRepositoryLive = Layer.effect(ResponseRepository, makeResponseRepository)
