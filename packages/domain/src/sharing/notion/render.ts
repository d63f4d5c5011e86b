// A cached Notion page's blocks as HTML for the public page. Safe by construction: every piece of
// Notion text is escaped, only a fixed set of tags is written, and only checked URLs become links.
import type { NotionAssetRecord, NotionPageRecord } from "../ports/notion-mirrors.js"
import type { NotionBlock, NotionMediaBlock, NotionRichTexts } from "./blocks.js"
import { notionAssetPath, notionPagePath } from "./wire.js"

/** Where the rendered page points: our cached copy of a hosted file, and a mirrored child page. */
export interface NotionRenderLinks {
  /** The URL we serve a hosted media block's cached bytes at; undefined when not cached. */
  readonly assetUrl: (blockId: string) => string | undefined
  readonly pageUrl: (pageId: string) => string
}

const ENTITIES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c)

/** Browsers drop or fold control characters and spaces inside a scheme, so none may appear at all. */
const hasControlOrSpace = (url: string) => {
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i)
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}

/** A link from Notion content: absolute http(s) or mailto, nothing else. */
const contentHref = (url: string): string | undefined => {
  const trimmed = url.trim()
  if (hasControlOrSpace(trimmed)) return undefined
  return /^(?:https?:\/\/[^/\\]|mailto:.)/i.test(trimmed) ? trimmed : undefined
}

/** A link we made (asset, child page): as above, or a path on our own origin (not `//` or `/\`). */
const ownHref = (url: string): string | undefined => {
  if (hasControlOrSpace(url)) return undefined
  return /^\/(?![/\\])/.test(url) ? url : contentHref(url)
}

const externalLink = (href: string, inner: string) =>
  `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${inner}</a>`

const ownLink = (href: string, inner: string) => `<a href="${escapeHtml(href)}">${inner}</a>`

/** The text of some rich text without its formatting. */
export const notionPlainText = (rich: NotionRichTexts): string => rich.map((r) => r.text).join("")

const richText = (rich: NotionRichTexts): string =>
  rich
    .map((r) => {
      let html = escapeHtml(r.text).replace(/\r?\n/g, "<br>")
      if (r.code) html = `<code>${html}</code>`
      if (r.underline) html = `<u>${html}</u>`
      if (r.strikethrough) html = `<s>${html}</s>`
      if (r.italic) html = `<em>${html}</em>`
      if (r.bold) html = `<strong>${html}</strong>`
      const href = r.href === null ? undefined : contentHref(r.href)
      return href === undefined ? html : externalLink(href, html)
    })
    .join("")

/** A URL from content as a link, or as plain text when its scheme is not one we link to. */
const urlParagraph = (className: string, url: string, label: string) => {
  const href = contentHref(url)
  const text = escapeHtml(label === "" ? url : label)
  return `<p class="${className}">${href === undefined ? text : externalLink(href, text)}</p>`
}

const mediaLabel = (block: NotionMediaBlock) => {
  return (block.name ?? notionPlainText(block.caption)).trim()
}

const DEFAULT_LABELS: Readonly<Record<NotionMediaBlock["kind"], string>> = {
  image: "Image",
  file: "File",
  pdf: "PDF",
  video: "Video",
  audio: "Audio"
}

const figure = (src: string, block: NotionMediaBlock) => {
  const caption = block.caption.length === 0 ? "" : `<figcaption>${richText(block.caption)}</figcaption>`
  const alt = escapeHtml(notionPlainText(block.caption))
  return `<figure><img src="${escapeHtml(src)}" alt="${alt}" loading="lazy">${caption}</figure>`
}

const media = (block: NotionMediaBlock, links: NotionRenderLinks): string => {
  if (block.source.hosted) {
    const cached = links.assetUrl(block.id)
    const href = cached === undefined ? undefined : ownHref(cached)
    // Not cached: the Notion URL expires within the hour, so showing it would break later.
    if (href === undefined) return ""
    if (block.kind === "image") return figure(href, block)
    const label = mediaLabel(block)
    return `<p class="file">${ownLink(href, escapeHtml(label === "" ? DEFAULT_LABELS[block.kind] : label))}</p>`
  }
  const url = block.source.url.trim()
  if (block.kind === "image" && /^https:\/\//i.test(url) && contentHref(url) !== undefined)
    return figure(url, block)
  return urlParagraph("file", url, mediaLabel(block))
}

const indented = (children: ReadonlyArray<NotionBlock>, links: NotionRenderLinks) =>
  children.length === 0 ? "" : `<div class="indent">${renderNotionBlocks(children, links)}</div>`

const HEADING_TAGS = { heading_1: "h2", heading_2: "h3", heading_3: "h4" } as const

/** Language names become a class: lowercase letters, digits and `+#-` only (`c++`, `c#`). */
const languageClass = (language: string) => {
  const clean = language.toLowerCase().replace(/[^a-z0-9+#-]/g, "")
  return clean === "" ? "" : ` class="language-${clean}"`
}

const block = (b: NotionBlock, links: NotionRenderLinks): string => {
  switch (b.kind) {
    case "paragraph":
      return `<p>${richText(b.text)}</p>${indented(b.children, links)}`
    case "heading_1":
    case "heading_2":
    case "heading_3": {
      const tag = HEADING_TAGS[b.kind]
      return `<${tag}>${richText(b.text)}</${tag}>${indented(b.children, links)}`
    }
    case "quote":
      return `<blockquote><p>${richText(b.text)}</p>${renderNotionBlocks(b.children, links)}</blockquote>`
    case "callout": {
      const icon =
        b.icon === null ? "" : `<span class="callout-icon" aria-hidden="true">${escapeHtml(b.icon)}</span>`
      return `<aside class="callout">${icon}<p>${richText(b.text)}</p>${renderNotionBlocks(b.children, links)}</aside>`
    }
    case "toggle":
      return `<details><summary>${richText(b.text)}</summary>${renderNotionBlocks(b.children, links)}</details>`
    case "bulleted_list_item":
    case "numbered_list_item":
      return `<li>${richText(b.text)}${renderNotionBlocks(b.children, links)}</li>`
    case "to_do":
      // The label names the box for screen readers (a bare checkbox has no name).
      return `<li><label><input type="checkbox" disabled${b.checked ? " checked" : ""}> ${richText(b.text)}</label>${renderNotionBlocks(b.children, links)}</li>`
    case "code":
      return `<pre><code${languageClass(b.language)}>${escapeHtml(notionPlainText(b.text))}</code></pre>`
    case "divider":
      return "<hr>"
    case "image":
    case "file":
    case "pdf":
    case "video":
    case "audio":
      return media(b, links)
    case "child_page": {
      const title = escapeHtml(b.title.trim() === "" ? "Untitled" : b.title)
      const href = ownHref(links.pageUrl(b.id))
      return `<p class="child-page">${href === undefined ? title : ownLink(href, title)}</p>`
    }
    case "bookmark":
    case "embed":
    case "link_preview":
      return urlParagraph("bookmark", b.url, notionPlainText(b.caption).trim())
    case "equation":
      return `<p><span class="equation">${escapeHtml(b.expression)}</span></p>`
    case "table": {
      const row = (cells: ReadonlyArray<NotionRichTexts>, tag: "th" | "td") =>
        `<tr>${cells.map((c) => `<${tag}>${richText(c)}</${tag}>`).join("")}</tr>`
      const [first, ...rest] = b.rows
      const head = b.hasColumnHeader && first !== undefined ? `<thead>${row(first, "th")}</thead>` : ""
      const body = b.hasColumnHeader ? rest : b.rows
      return `<table>${head}<tbody>${body.map((r) => row(r, "td")).join("")}</tbody></table>`
    }
    case "unsupported":
      return ""
  }
}

/** Which list a block belongs to when it sits next to others of its kind. */
const LIST_TAGS: Partial<Record<NotionBlock["kind"], string>> = {
  bulleted_list_item: "<ul>",
  numbered_list_item: "<ol>",
  to_do: '<ul class="to-do">'
}

/** Blocks as HTML; consecutive list items of one kind share one list. */
export const renderNotionBlocks = (blocks: ReadonlyArray<NotionBlock>, links: NotionRenderLinks): string => {
  let html = ""
  let openList: NotionBlock["kind"] | undefined
  for (const b of blocks) {
    if (openList !== undefined && openList !== b.kind) {
      html += openList === "numbered_list_item" ? "</ol>" : "</ul>"
      openList = undefined
    }
    const opening = LIST_TAGS[b.kind]
    if (opening !== undefined && openList === undefined) {
      html += opening
      openList = b.kind
    }
    html += block(b, links)
  }
  if (openList !== undefined) html += openList === "numbered_list_item" ? "</ol>" : "</ul>"
  return html
}

/** Where a mirror's pages and cached files are served, under its public URL. */
export interface NotionMirrorUrls {
  readonly page: (pageId: string) => string
  readonly asset: (assetId: string) => string
}

/** The URLs under a mirror's public path `base`; its root page (`rootPageId`) is `base` itself. */
export const notionMirrorUrls = (base: string, rootPageId: string | null): NotionMirrorUrls => ({
  page: (pageId) => notionPagePath(base, rootPageId, pageId),
  asset: (assetId) => notionAssetPath(base, assetId)
})

/** A cached page as HTML, its links pointing at the mirror's own pages and cached files. */
export const renderMirrorPage = (
  page: NotionPageRecord,
  assets: ReadonlyArray<NotionAssetRecord>,
  urls: NotionMirrorUrls
): string => {
  const byBlock = new Map(assets.map((a) => [a.blockId, a.id]))
  return renderNotionBlocks(page.blocks, {
    assetUrl: (blockId) => {
      const id = byBlock.get(blockId)
      return id === undefined ? undefined : urls.asset(id)
    },
    pageUrl: urls.page
  })
}
