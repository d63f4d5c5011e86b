// The owner's use cases of a Notion mirror: queueing a refresh (of the whole mirror or one cached
// page) and reading the cached pages, their refresh state and their copied files.
import { Effect, Option } from "effect"
import { NotionPageNotMirrored, ResourceNotFound } from "../errors.js"
import { enqueueJob, newJob } from "../jobs/use-cases.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { NotionMirrors } from "../ports/notion-mirrors.js"
import type { ResourceRecordOf } from "../resources/resource.js"
import { ownedOfType } from "../resources/use-cases.js"
import { notionPageIdFrom } from "./blocks.js"
import { requireNotion } from "./feature.js"

/** `POST .../notion/refresh`: the whole mirror, or one of its cached pages. */
export const queueNotionRefresh = (slug: string, input: { readonly page_id?: string | null | undefined }) =>
  Effect.gen(function* () {
    yield* requireNotion
    const r = yield* ownedOfType(slug, "notion", "a Notion mirror")
    let pageId: string | null = null
    if (input.page_id != null) {
      const normalized = notionPageIdFrom(input.page_id)
      const cached =
        normalized === undefined
          ? Option.none()
          : yield* (yield* NotionMirrors).page(r.tenantId, r.id, normalized)
      if (Option.isNone(cached)) return yield* new NotionPageNotMirrored()
      pageId = cached.value.pageId
    }
    return yield* enqueueJob(
      yield* newJob({
        type: "notion_refresh",
        resourceId: r.id,
        payload: { page_id: pageId, reason: "requested" }
      })
    )
  })

/** The mirror's refresh state for its owner: the cached pages' times and its latest refresh job. */
const refreshState = (r: ResourceRecordOf<"notion">) =>
  Effect.gen(function* () {
    const state = yield* (yield* NotionMirrors).state(r.tenantId, r.id)
    const latest = yield* (yield* JobQueue).latestFor(r.tenantId, r.id, "notion_refresh")
    return {
      lastRefreshedAt: Option.match(state, { onNone: () => null, onSome: (s) => s.lastRefreshedAt }),
      latest: Option.getOrNull(latest)
    }
  })

/** `GET .../notion/pages`. */
export const notionPages = (slug: string) =>
  Effect.gen(function* () {
    const r = yield* ownedOfType(slug, "notion", "a Notion mirror")
    const pages = yield* (yield* NotionMirrors).pages(r.tenantId, r.id)
    return { resource: r, pages, ...(yield* refreshState(r)) }
  })

/** `GET .../notion/pages/{page_id}`: one cached page (its HTML is rendered by the caller's view). */
export const notionPage = (slug: string, pageId: string) =>
  Effect.gen(function* () {
    const r = yield* ownedOfType(slug, "notion", "a Notion mirror")
    const id = notionPageIdFrom(pageId)
    if (id === undefined) return yield* new ResourceNotFound()
    const mirrors = yield* NotionMirrors
    // The tree's pages hold the asked one: no read of it on its own.
    const pages = yield* mirrors.pages(r.tenantId, r.id)
    const page = pages.find((p) => p.pageId === id)
    if (page === undefined) return yield* new ResourceNotFound()
    const assets = yield* mirrors.assets(r.tenantId, r.id)
    return { resource: r, page, assets, pages }
  })

/** `GET .../notion/assets`. */
export const notionAssets = (slug: string) =>
  Effect.gen(function* () {
    const r = yield* ownedOfType(slug, "notion", "a Notion mirror")
    return { resource: r, assets: yield* (yield* NotionMirrors).assets(r.tenantId, r.id) }
  })
