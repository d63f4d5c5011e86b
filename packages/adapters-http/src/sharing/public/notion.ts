// The public side of a Notion mirror: `/s/{slug}` shows its root page (`?page={id}` another page
// of its tree) with the tree as navigation, and `/s/{slug}/media/{assetId}` serves a cached file,
// under the mirror's password and window like everything else under its URL.
import {
  type NotionMirrors,
  notionMirrorUrls,
  type ResourceRecordOf,
  renderMirrorPage,
  resourcePublicPath,
  noindexFor
} from "@folio/domain"
import { Clock, Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import { renderPlaceholderPage } from "../pages/page.js"
import { renderNotionMirrorPage } from "../pages/notion.js"
import { streamStoredFile } from "./file-bytes.js"
import { type Deps, gateOf, notFound, queryOf } from "./serving.js"

type NotionRecord = ResourceRecordOf<"notion">
type NotionDeps = Deps & { readonly notion: NotionMirrors["Service"] }

/** The mirror's page the request asks for, as a complete document; undefined when it has none. */
export const notionPageHtml = (
  deps: NotionDeps,
  request: HttpServerRequest.HttpServerRequest,
  r: NotionRecord
) =>
  Effect.gen(function* () {
    const title = r.title ?? r.slug
    const url = `${deps.origin}${resourcePublicPath(r.slug)}`
    const noindex = noindexFor(r)
    const pages = yield* deps.notion.pages(r.tenantId, r.id)
    const root = pages.find((p) => p.parentPageId === null)
    if (root === undefined)
      // Before the first refresh has saved anything.
      return renderPlaceholderPage({
        title,
        description: r.description ?? undefined,
        message: "This page is being copied from Notion. Try again in a moment.",
        url,
        noindex
      }).text
    const asked = queryOf(request).get("page")
    const current = asked === null ? root : pages.find((p) => p.pageId === asked)
    if (current === undefined) return undefined
    const assets = yield* deps.notion.assets(r.tenantId, r.id)
    const urls = notionMirrorUrls(resourcePublicPath(r.slug), root.pageId)
    return renderNotionMirrorPage({
      mirrorTitle: title,
      pageTitle: current === root && r.title !== null ? r.title : current.title,
      icon: current.icon,
      description: r.description ?? undefined,
      url: current === root ? url : `${deps.origin}${urls.page(current.pageId)}`,
      nav: pages.map((p) => ({
        title: p === root && r.title !== null ? r.title : p.title,
        href: urls.page(p.pageId),
        depth: p.depth,
        current: p === current
      })),
      body: renderMirrorPage(current, assets, urls),
      noindex
    }).text
  })

/** `/s/{slug}/media/{assetId}`: one cached file of the mirror. */
export const serveNotionAsset = (
  deps: NotionDeps,
  request: HttpServerRequest.HttpServerRequest,
  r: NotionRecord,
  assetId: string
) =>
  Effect.gen(function* () {
    const gate = gateOf(deps, request, r, yield* Clock.currentTimeMillis)
    if (gate !== undefined) return gate
    const asset = yield* deps.notion.asset(r.tenantId, r.id, assetId)
    if (Option.isNone(asset)) return notFound()
    const a = asset.value
    const mode = queryOf(request).get("download") === null ? "content" : "download"
    return yield* streamStoredFile(
      deps.blobs,
      request,
      { blobKey: a.blobKey, fileName: a.name ?? "file", contentType: a.contentType, size: a.bytes },
      mode,
      { headers: {}, cookies: [], lastModified: a.createdAt }
    )
  })
