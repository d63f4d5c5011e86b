// In-memory adapters for every storage port: the same semantics as the SQL adapters (optimistic
// writes, unique slugs, keyset pages, fixed-window counters), for embedding and fast tests.
import {
  ApiKeyRepository,
  type ApiKeyRecord,
  decodeCursor,
  encodeCursor,
  FormRepository,
  type FormRecord,
  type FormVersionRecord,
  InvalidCursor,
  type Page,
  RateLimitStore,
  type RequestTally,
  ResponseRepository,
  type ResponseFileRecord,
  type ResponseRecord,
  type ResponseUpdate,
  SlugTaken,
  StaleForm,
  StorageError,
  UsageStore,
  type WorkspaceRecord,
  WorkspaceRepository
} from "@folio/domain"
import { Context, Effect, Either, Layer, Option } from "effect"
import { StorageHealth } from "../health.js"

interface StoredForm extends FormRecord {
  readonly deletedAt: Date | null
}

/** Compares keyset positions component-wise (numbers numerically, strings by code unit). */
const comparePositions = (a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x === y) continue
    if (x === undefined) return -1
    if (y === undefined) return 1
    return x < y ? -1 : 1
  }
  return 0
}

/** One descending keyset page over rows already filtered. */
const pageDescending = <A>(
  rows: ReadonlyArray<A>,
  keyOf: (row: A) => ReadonlyArray<string | number>,
  arity: ReadonlyArray<"number" | "string">,
  query: { readonly limit: number; readonly cursor?: string | undefined }
): Either.Either<Page<A>, InvalidCursor> => {
  let after: ReadonlyArray<string | number> | undefined
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor)
    if (Either.isLeft(decoded)) return Either.left(new InvalidCursor())
    const position = decoded.right
    if (position.length !== arity.length || position.some((v, i) => typeof v !== arity[i])) {
      return Either.left(new InvalidCursor())
    }
    after = position
  }
  const sorted = [...rows].sort((a, b) => comparePositions(keyOf(b), keyOf(a)))
  const rest = after === undefined ? sorted : sorted.filter((row) => comparePositions(keyOf(row), after) < 0)
  const items = rest.slice(0, query.limit)
  const last = items[items.length - 1]
  const nextCursor = rest.length > query.limit && last !== undefined ? encodeCursor(keyOf(last)) : null
  return Either.right({ items, nextCursor })
}

const matchesSearch = (form: FormRecord, search: string | undefined): boolean => {
  if (search === undefined || search === "") return true
  const needle = search.toLowerCase()
  return form.title.toLowerCase().includes(needle) || form.slug.toLowerCase().includes(needle)
}

export const makeMemoryStorage = () => {
  const workspaces = new Map<string, WorkspaceRecord>()
  const keys = new Map<string, ApiKeyRecord>()
  const forms = new Map<string, StoredForm>()
  const versions = new Map<string, FormVersionRecord>()
  const responses = new Map<string, ResponseRecord>()
  const responseFiles = new Map<string, ResponseFileRecord>()
  const counters = new Map<string, number>()
  const requests: Array<RequestTally> = []

  const liveForm = (workspaceId: string, id: string) => {
    const form = forms.get(id)
    return form !== undefined && form.workspaceId === workspaceId && form.deletedAt === null
      ? form
      : undefined
  }
  const slugTakenBy = (slug: string, exceptId: string) =>
    [...forms.values()].some((f) => f.slug === slug && f.deletedAt === null && f.id !== exceptId)
  const strip = ({ deletedAt: _, ...form }: StoredForm): FormRecord => form

  const completedCount = (formId: string) =>
    [...responses.values()].filter((r) => r.formId === formId && r.status === "completed").length

  const workspaceRepo = WorkspaceRepository.of({
    create: (ws) => Effect.sync(() => void workspaces.set(ws.id, ws)),
    get: (id) => Effect.sync(() => Option.fromNullable(workspaces.get(id))),
    list: Effect.sync(() =>
      [...workspaces.values()].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    ),
    count: Effect.sync(() => workspaces.size),
    setFeatures: (id, features) =>
      Effect.sync(() => {
        const ws = workspaces.get(id)
        if (ws === undefined) return false
        workspaces.set(id, { ...ws, features: { ...features } })
        return true
      })
  })

  const keyRepo = ApiKeyRepository.of({
    create: (key) => Effect.sync(() => void keys.set(key.id, key)),
    findByPrefix: (prefix) =>
      Effect.sync(() => Option.fromNullable([...keys.values()].find((k) => k.prefix === prefix))),
    list: (workspaceId) =>
      Effect.sync(() =>
        [...keys.values()].filter((k) => k.workspaceId === workspaceId).sort((a, b) => (a.id < b.id ? -1 : 1))
      ),
    revoke: (workspaceId, id, at) =>
      Effect.sync(() => {
        const key = keys.get(id)
        if (key === undefined || key.workspaceId !== workspaceId || key.revokedAt !== null) return false
        keys.set(id, { ...key, revokedAt: at })
        return true
      })
  })

  const formRepo = FormRepository.of({
    insert: (form) =>
      Effect.suspend((): Effect.Effect<void, SlugTaken> => {
        if (slugTakenBy(form.slug, form.id)) return Effect.fail(new SlugTaken(form.slug))
        forms.set(form.id, { ...form, deletedAt: null })
        return Effect.void
      }),
    get: (workspaceId, id) =>
      Effect.sync(() => Option.map(Option.fromNullable(liveForm(workspaceId, id)), strip)),
    getBySlug: (slug) =>
      Effect.sync(() =>
        Option.map(
          Option.fromNullable([...forms.values()].find((f) => f.slug === slug && f.deletedAt === null)),
          strip
        )
      ),
    list: (workspaceId, query) =>
      Effect.suspend(() => {
        const rows = [...forms.values()].filter(
          (f) =>
            f.workspaceId === workspaceId &&
            f.deletedAt === null &&
            (query.kind === undefined || f.kind === query.kind) &&
            (query.status === undefined || f.status === query.status) &&
            matchesSearch(f, query.search)
        )
        return pageDescending(rows, (f) => [f.updatedAt.getTime(), f.id], ["number", "string"], query).pipe(
          Either.map((page) => ({
            nextCursor: page.nextCursor,
            items: page.items.map((f) => ({
              id: f.id,
              title: f.title,
              slug: f.slug,
              status: f.status,
              kind: f.kind,
              updatedAt: f.updatedAt,
              responseCount: completedCount(f.id)
            }))
          }))
        )
      }),
    save: (next, publish) =>
      Effect.suspend((): Effect.Effect<void, SlugTaken | StaleForm> => {
        const current = liveForm(next.workspaceId, next.id)
        if (current === undefined || current.rowVersion !== next.rowVersion - 1)
          return Effect.fail(new StaleForm())
        if (slugTakenBy(next.slug, next.id)) return Effect.fail(new SlugTaken(next.slug))
        if (publish !== undefined) {
          const clash = [...versions.values()].some(
            (v) => v.formId === publish.formId && v.version === publish.version
          )
          if (clash || publish.formId !== next.id) return Effect.fail(new StaleForm())
          versions.set(publish.id, publish)
        }
        forms.set(next.id, { ...next, deletedAt: null })
        return Effect.void
      }),
    softDelete: (workspaceId, id, at) =>
      Effect.sync(() => {
        const form = liveForm(workspaceId, id)
        if (form === undefined) return false
        forms.set(id, { ...form, deletedAt: at })
        return true
      }),
    getVersion: (workspaceId, formId, versionId) =>
      Effect.sync(() => {
        const v = versions.get(versionId)
        return Option.fromNullable(
          v !== undefined &&
            v.workspaceId === workspaceId &&
            v.formId === formId &&
            liveForm(workspaceId, formId)
            ? v
            : undefined
        )
      }),
    listVersions: (workspaceId, formId, query) =>
      Effect.suspend(() => {
        const rows = liveForm(workspaceId, formId)
          ? [...versions.values()].filter((v) => v.formId === formId && v.workspaceId === workspaceId)
          : []
        return pageDescending(rows, (v) => [v.version], ["number"], query).pipe(
          Either.map((page) => ({
            nextCursor: page.nextCursor,
            items: page.items.map(({ definition: _, ...summary }) => summary)
          }))
        )
      })
  })

  const responseRepo = ResponseRepository.of({
    insert: (response) => Effect.sync(() => void responses.set(response.id, { ...response, version: 1 })),
    // The same compare-and-set as SQL; one synchronous step, so nothing can interleave with it.
    update: (response, expected) =>
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
          completedCount(response.formId) >= expected.maxCompleted
        )
          return "full"
        responses.set(response.id, response)
        return "updated"
      }),
    get: (workspaceId, formId, id) =>
      Effect.sync(() => {
        const r = responses.get(id)
        return Option.fromNullable(
          r !== undefined && r.workspaceId === workspaceId && r.formId === formId ? r : undefined
        )
      }),
    list: (workspaceId, formId, query) =>
      Effect.suspend(() => {
        const rows = [...responses.values()].filter(
          (r) =>
            r.workspaceId === workspaceId &&
            r.formId === formId &&
            (query.status === undefined || r.status === query.status)
        )
        return pageDescending(rows, (r) => [r.createdAt.getTime(), r.id], ["number", "string"], query)
      }),
    answerStats: (workspaceId, formId, options) =>
      Effect.sync(() => {
        const rows = [...responses.values()]
          .filter((r) => r.workspaceId === workspaceId && r.formId === formId && r.status === "completed")
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
        for (const r of rows) {
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
          const stored = r.meta.scores
          if (Array.isArray(stored)) {
            for (const s of stored as Array<{ id?: unknown; score?: unknown }>) {
              if (typeof s.id !== "string") continue
              const list = scores.get(s.id) ?? []
              if (typeof s.score === "number") list.push(s.score)
              scores.set(s.id, list)
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
          }))
        }
      }),
    // The memory store aggregates on every read; there is nothing kept to rebuild.
    rebuildAnswerStats: () => Effect.void,
    respondentHistory: (workspaceId, formId, query) =>
      Effect.sync(() => {
        const mine = [...responses.values()].filter(
          (r) => r.workspaceId === workspaceId && r.formId === formId
        )
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
        const rows = [...responses.values()].filter(
          (r) =>
            r.workspaceId === workspaceId &&
            r.formId === formId &&
            r.createdAt.getTime() >= cohort.from.getTime() &&
            r.createdAt.getTime() < cohort.to.getTime()
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
        const rows = [...responses.values()].filter(
          (r) => r.workspaceId === workspaceId && r.formId === formId
        )
        const interviewOf = (r: ResponseRecord) =>
          (typeof r.meta.interview === "object" && r.meta.interview !== null ? r.meta.interview : {}) as {
            transcript?: unknown
            analysisStatus?: unknown
            insights?: unknown
            quality?: { exchangeCount?: unknown }
          }
        const completed = rows.filter((r) => r.status === "completed")
        const analysis: Record<string, number> = {}
        const codes = new Map<string, { responses: number; mentions: number }>()
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
            exchanges.length === 0 ? null : exchanges.reduce((a, b) => a + b, 0) / exchanges.length
        }
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
      Effect.sync(() => {
        const f = responseFiles.get(fileId)
        return Option.fromNullable(
          f !== undefined && f.workspaceId === workspaceId && f.formId === formId ? f : undefined
        )
      }),
    listFiles: (workspaceId, formId, responseIds) =>
      Effect.sync(() => {
        const wanted = new Set(responseIds)
        return [...responseFiles.values()]
          .filter((f) => f.workspaceId === workspaceId && f.formId === formId && wanted.has(f.responseId))
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
      }),
    count: (workspaceId, formId, status) =>
      Effect.sync(
        () =>
          [...responses.values()].filter(
            (r) =>
              r.workspaceId === workspaceId &&
              r.formId === formId &&
              (status === undefined || r.status === status)
          ).length
      )
  })

  const windowOf = (windowMs: number, nowMs: number) => Math.floor(nowMs / windowMs) * windowMs
  const hitNow = (bucket: string, windowMs: number, nowMs: number) => {
    const start = windowOf(windowMs, nowMs)
    const id = `${bucket}@${start}`
    const count = (counters.get(id) ?? 0) + 1
    counters.set(id, count)
    return { count, resetAt: start + windowMs }
  }
  const rateLimits = RateLimitStore.of({
    hitMany: (buckets, windowMs, nowMs) => Effect.sync(() => buckets.map((b) => hitNow(b, windowMs, nowMs))),
    addMany: (entries, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        for (const e of entries)
          counters.set(`${e.bucket}@${start}`, (counters.get(`${e.bucket}@${start}`) ?? 0) + e.hits)
        return entries.map((e) => ({
          count: counters.get(`${e.bucket}@${start}`) ?? 0,
          resetAt: start + windowMs
        }))
      }),
    hit: (bucket, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        const id = `${bucket}@${start}`
        const count = (counters.get(id) ?? 0) + 1
        counters.set(id, count)
        // Drop windows that ended, so the map stays as small as the set of active buckets.
        for (const key of counters.keys()) {
          const at = Number(key.slice(key.lastIndexOf("@") + 1))
          if (at + windowMs <= start) counters.delete(key)
        }
        return { count, resetAt: start + windowMs }
      }),
    peek: (bucket, windowMs, nowMs) =>
      Effect.sync(() => {
        const start = windowOf(windowMs, nowMs)
        return { count: counters.get(`${bucket}@${start}`) ?? 0, resetAt: start + windowMs }
      })
  })

  const DAY = 86_400_000
  const usage = UsageStore.of({
    record: (request) => Effect.sync(() => void requests.push({ ...request, count: 1 })),
    recordMany: (tallies) =>
      Effect.sync(() => {
        requests.push(...tallies)
        const latest = Math.max(...tallies.map((t) => t.at.getTime()))
        const horizon = latest - 8 * DAY
        for (let i = requests.length - 1; i >= 0; i--)
          if ((requests[i]?.at.getTime() ?? 0) < horizon) requests.splice(i, 1)
      }),
    counts: (workspaceId, now) =>
      Effect.sync(() => {
        const t = now.getTime()
        const mine = requests.filter((r) => r.workspaceId === workspaceId && r.at.getTime() <= t)
        const day = mine.filter((r) => r.at.getTime() > t - DAY)
        const sum = (rows: ReadonlyArray<RequestTally>) => rows.reduce((n, r) => n + r.count, 0)
        return {
          last24h: sum(day),
          last7d: sum(mine.filter((r) => r.at.getTime() > t - 7 * DAY)),
          byStatusLast24h: {
            ok: sum(day.filter((r) => r.status < 400)),
            clientError: sum(day.filter((r) => r.status >= 400 && r.status < 500)),
            serverError: sum(day.filter((r) => r.status >= 500))
          }
        }
      })
  })

  return { workspaceRepo, keyRepo, formRepo, responseRepo, rateLimits, usage }
}

/** Every storage port, in memory, fresh per layer build. */
export const MemoryStorageLive = Layer.effectContext(
  Effect.sync(() => {
    const s = makeMemoryStorage()
    return Context.make(WorkspaceRepository, s.workspaceRepo).pipe(
      Context.add(ApiKeyRepository, s.keyRepo),
      Context.add(FormRepository, s.formRepo),
      Context.add(ResponseRepository, s.responseRepo),
      Context.add(RateLimitStore, s.rateLimits),
      Context.add(UsageStore, s.usage),
      Context.add(StorageHealth, { check: Effect.void })
    )
  })
)
