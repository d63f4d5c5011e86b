// The public page of a Notion mirror: the page tree as a navigation list beside the current page's
// blocks. The blocks are rendered by the domain (escaped by construction) and pass the sanitizer's
// allowlist here as well: a renderer bug cannot put script on the page.
import type sanitizeHtml from "sanitize-html"
import { attr, type Html, html, unsafeRaw } from "../../shared/index.js"
import { sanitizeHtmlLibrary } from "./libraries.js"
import { previewTags, shell } from "./page.js"

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "br",
    "hr",
    "blockquote",
    "aside",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "u",
    "s",
    "code",
    "pre",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "details",
    "summary",
    "span",
    "div",
    "label",
    "input"
  ],
  allowedAttributes: {
    a: ["href", "rel"],
    img: ["src", "alt", "loading"],
    input: ["type", "disabled", "checked"],
    code: ["class"],
    p: ["class"],
    ul: ["class"],
    div: ["class"],
    aside: ["class"],
    span: ["class", "aria-hidden"]
  },
  allowedClasses: {
    code: [/^language-[a-z0-9+#-]{1,32}$/i],
    p: ["file", "child-page", "bookmark", "embed", "link_preview", "link-preview", "media"],
    ul: ["to-do"],
    div: ["indent"],
    aside: ["callout"],
    span: ["callout-icon", "equation"]
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https"] },
  allowedSchemesAppliedToAttributes: ["href", "src"],
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  exclusiveFilter: (frame) => frame.tag === "input" && frame.attribs.type !== "checkbox"
}

/** A mirror page's rendered blocks reduced to the renderer's own allowlist. */
export const sanitizeNotionHtml = (rendered: string): string => sanitizeHtmlLibrary()(rendered, OPTIONS)

export interface NotionNavItem {
  readonly title: string
  readonly href: string
  readonly depth: number
  readonly current: boolean
}

export interface NotionMirrorPageInput {
  /** The mirror's title (the document title's suffix). */
  readonly mirrorTitle: string
  readonly pageTitle: string
  readonly icon: string | null
  readonly description?: string | undefined
  readonly url: string
  /** The pages of the tree in order (one level of indent per depth). */
  readonly nav: ReadonlyArray<NotionNavItem>
  /** The page's rendered blocks (sanitized here). */
  readonly body: string
  readonly noindex?: boolean | undefined
}

export const renderNotionMirrorPage = (input: NotionMirrorPageInput): Html => {
  const nav =
    input.nav.length <= 1
      ? ""
      : html`<nav class="notion-nav" aria-label="Pages"><ul>${input.nav.map(
          (item) =>
            html`<li${attr("class", `depth-${Math.min(item.depth, 6)}`)}><a${attr("href", item.href)}${item.current ? html` aria-current="page"` : ""}>${item.title || "Untitled"}</a></li>`
        )}</ul></nav>`
  const title =
    input.pageTitle === input.mirrorTitle ? input.pageTitle : `${input.pageTitle} · ${input.mirrorTitle}`
  return shell(
    {
      title,
      noindex: input.noindex === true,
      head: previewTags({ title, description: input.description, url: input.url })
    },
    html`${nav}<article class="md notion"><h1 class="page-title">${input.icon === null ? "" : html`<span aria-hidden="true">${input.icon} </span>`}${input.pageTitle || "Untitled"}</h1>${unsafeRaw(sanitizeNotionHtml(input.body))}</article>`
  )
}
