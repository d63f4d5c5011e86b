// A Markdown page's body as HTML that cannot run script on our origin. markdown-it renders CommonMark
// with GFM tables, strikethrough and autolinks (raw HTML in the source is allowed through the parser);
// sanitize-html then keeps only an allowlist of content tags and attributes, whatever markdown-it or
// the author wrote. The sanitizer is the security boundary: the page's CSP (page.ts) is the second one.
import type { MarkdownIt } from "markdown-it"
import type sanitizeHtml from "sanitize-html"
import { type Html, unsafeRaw } from "../../shared/index.js"
import { markdownItLibrary, sanitizeHtmlLibrary } from "./libraries.js"

let parser: MarkdownIt | undefined
const markdown = (): MarkdownIt =>
  (parser ??= new (markdownItLibrary())({ html: true, linkify: true, typographer: false }))

/** The `rel` every link of a page carries: no window handle, no referrer, no ranking for the target. */
export const LINK_REL = "noopener noreferrer nofollow"

/** Raster images only: an SVG or any other type as a data URL is dropped with its image. */
const DATA_IMAGE = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,[a-z0-9+/=\s]*$/i
const ALIGN = /^\s*text-align\s*:\s*(left|center|right)\s*;?\s*$/i

const alignCell =
  (tag: "th" | "td"): sanitizeHtml.Transformer =>
  (_tagName, attribs) => {
    // markdown-it aligns table cells with a style attribute, which the page's CSP would not apply and
    // the allowlist refuses: carry the alignment as a class instead.
    const { style, ...rest } = attribs
    const align = style === undefined ? undefined : ALIGN.exec(style)?.[1]?.toLowerCase()
    return { tagName: tag, attribs: align === undefined ? rest : { ...rest, class: `align-${align}` } }
  }

let options: sanitizeHtml.IOptions | undefined
const optionsOf = (sanitize: typeof sanitizeHtml): sanitizeHtml.IOptions =>
  (options ??= {
    allowedTags: [
      "h1",
      "h2",
      "h3",
      "h4",
      "h5",
      "h6",
      "p",
      "br",
      "hr",
      "blockquote",
      "ul",
      "ol",
      "li",
      "dl",
      "dt",
      "dd",
      "strong",
      "b",
      "em",
      "i",
      "u",
      "s",
      "del",
      "ins",
      "mark",
      "small",
      "sub",
      "sup",
      "abbr",
      "kbd",
      "samp",
      "var",
      "q",
      "cite",
      "code",
      "pre",
      "a",
      "img",
      "figure",
      "figcaption",
      "table",
      "caption",
      "thead",
      "tbody",
      "tfoot",
      "tr",
      "th",
      "td",
      "details",
      "summary",
      "span",
      "div"
    ],
    allowedAttributes: {
      a: ["href", "title", "rel"],
      img: ["src", "alt", "title", "width", "height"],
      ol: ["start", "reversed"],
      li: ["value"],
      th: ["colspan", "rowspan", "scope", "class"],
      td: ["colspan", "rowspan", "class"],
      code: ["class"],
      abbr: ["title"],
      q: ["cite"],
      details: ["open"]
    },
    allowedClasses: {
      code: [/^language-[a-z0-9_+#-]{1,32}$/i],
      th: ["align-left", "align-center", "align-right"],
      td: ["align-left", "align-center", "align-right"]
    },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["http", "https", "data"], q: ["http", "https"] },
    allowedSchemesAppliedToAttributes: ["href", "src", "cite"],
    allowProtocolRelative: false,
    disallowedTagsMode: "discard",
    transformTags: {
      a: sanitize.simpleTransform("a", { rel: LINK_REL }),
      // An image the author gave no text alternative is taken as decorative (`alt=""`), so screen
      // readers skip it instead of reading its file name.
      img: (tagName, attribs) => ({ tagName, attribs: { ...attribs, alt: attribs.alt ?? "" } }),
      th: alignCell("th"),
      td: alignCell("td")
    },
    // An image whose source was refused (a scheme not allowed, a data URL of no raster image) goes.
    exclusiveFilter: (frame) =>
      frame.tag === "img" &&
      (frame.attribs.src === undefined ||
        frame.attribs.src === "" ||
        (/^\s*data:/i.test(frame.attribs.src) && !DATA_IMAGE.test(frame.attribs.src.trim())))
  })

/** Any HTML reduced to the allowlist of a Markdown page's content (also applied to raw HTML). */
export const sanitizePageHtml = (dirty: string): string => {
  const sanitize = sanitizeHtmlLibrary()
  return sanitize(dirty, optionsOf(sanitize))
}

/** A Markdown page's source as sanitized HTML, ready to place inside the page's `<article>`. */
export const renderMarkdown = (source: string): Html =>
  // The sanitizer's output is the allowlisted markup: the one place it becomes `Html`.
  unsafeRaw(sanitizePageHtml(markdown().render(source)))

/**
 * The plain text of a Markdown source's paragraphs (of all its text when it has none), without
 * markup, whitespace collapsed and cut at `maxChars` on a word with an ellipsis: a page's description
 * when its owner gave none.
 */
export const markdownExcerpt = (source: string, maxChars = 200): string => {
  const tokens = markdown().parse(source, {})
  const textOf = (onlyParagraphs: boolean): string => {
    const words: Array<string> = []
    tokens.forEach((block, i) => {
      if (block.type !== "inline" || block.children === null) return
      if (onlyParagraphs && tokens[i - 1]?.type !== "paragraph_open") return
      for (const token of block.children)
        if (token.type === "text" || token.type === "code_inline") words.push(token.content)
        else if (token.type === "softbreak" || token.type === "hardbreak") words.push(" ")
      words.push(" ")
    })
    return words.join("").replace(/\s+/g, " ").trim()
  }
  const text = textOf(true) || textOf(false)
  if (text.length <= maxChars) return text
  const cut = text.slice(0, maxChars - 1)
  const space = cut.lastIndexOf(" ")
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
