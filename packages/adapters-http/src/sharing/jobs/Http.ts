// Handlers of the job routes: sharingRoute, the SharingJobs (or, for a mirror's reads, SharingNotionMirrors)
// use case, the views (poll URLs and mirror URLs on this server's public origin; a page's HTML
// rendered from its cached blocks).
import {
  jobAccepted,
  jobPollUrl,
  jobView,
  type NotionAssetRecord,
  type NotionPageRecord,
  notionAssetPath,
  notionAssetView,
  notionMirrorUrls,
  notionPageSummaryView,
  notionRefreshView,
  publicResourceUrl,
  renderMirrorPage,
  type SharingJobRecord,
  SharingJobs,
  SharingNotionMirrors
} from "@folio/domain"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { sharingRoute } from "../route.js"
import { SharingApi, SHARING_API_PREFIX } from "../Api.js"
import { sanitizeNotionHtml } from "../pages/notion.js"

export const JobsLive = HttpApiBuilder.group(SharingApi, "jobs", (handlers) =>
  Effect.gen(function* () {
    const jobs = yield* SharingJobs
    const mirrors = yield* SharingNotionMirrors
    const origin = yield* PublicOrigin
    const pollUrl = (id: string) => jobPollUrl(origin, SHARING_API_PREFIX, id)
    const accepted = (job: SharingJobRecord) =>
      Effect.map(Clock.currentTimeMillis, (ms) => jobAccepted(job, pollUrl(job.id), ms))
    const view = (job: SharingJobRecord) =>
      Effect.map(Clock.currentTimeMillis, (ms) => jobView(job, pollUrl(job.id), ms))
    /** A mirror's URLs: its pages and files under its public address. */
    const mirrorUrls = (slug: string, pages: ReadonlyArray<NotionPageRecord>) =>
      notionMirrorUrls(
        publicResourceUrl(origin, slug),
        pages.find((p) => p.parentPageId === null)?.pageId ?? null
      )
    const assetViews = (slug: string, assets: ReadonlyArray<NotionAssetRecord>) => {
      const base = publicResourceUrl(origin, slug)
      return assets.map((a) => notionAssetView(a, notionAssetPath(base, a.id)))
    }
    return handlers
      .handle("optimizeOriginal", ({ params, payload }) =>
        sharingRoute(
          "jobs.optimizeOriginal",
          Effect.flatMap(jobs.optimizeOriginal(params.slug, payload), accepted)
        )
      )
      .handle("refreshNotion", ({ params, payload }) =>
        sharingRoute("jobs.refreshNotion", Effect.flatMap(jobs.refreshNotion(params.slug, payload), accepted))
      )
      .handle("notionPages", ({ params }) =>
        sharingRoute(
          "jobs.notionPages",
          Effect.gen(function* () {
            const { resource, pages, latest, lastRefreshedAt } = yield* mirrors.pages(params.slug)
            const urls = mirrorUrls(resource.slug, pages)
            return {
              pages: pages.map((p) => notionPageSummaryView(p, urls.page(p.pageId))),
              refresh: notionRefreshView(latest, lastRefreshedAt)
            }
          })
        )
      )
      .handle("notionPage", ({ params }) =>
        sharingRoute(
          "jobs.notionPage",
          Effect.gen(function* () {
            const { resource, page, assets, pages } = yield* mirrors.page(params.slug, params.pageId)
            const urls = mirrorUrls(resource.slug, pages)
            return {
              ...notionPageSummaryView(page, urls.page(page.pageId)),
              html: sanitizeNotionHtml(renderMirrorPage(page, assets, urls))
            }
          })
        )
      )
      .handle("notionAssets", ({ params }) =>
        sharingRoute(
          "jobs.notionAssets",
          Effect.gen(function* () {
            const { resource, assets } = yield* mirrors.assets(params.slug)
            return { items: assetViews(resource.slug, assets) }
          })
        )
      )
      .handle("list", ({ query }) =>
        sharingRoute(
          "jobs.list",
          Effect.gen(function* () {
            const page = yield* jobs.list(query)
            return { items: yield* Effect.forEach(page.items, view), next_cursor: page.nextCursor }
          })
        )
      )
      .handle("get", ({ params }) => sharingRoute("jobs.get", Effect.flatMap(jobs.get(params.id), view)))
      .handle("retry", ({ params }) =>
        sharingRoute("jobs.retry", Effect.flatMap(jobs.retry(params.id), accepted))
      )
  })
)
