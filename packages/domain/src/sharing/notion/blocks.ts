// A Notion page as the sharing service keeps it: a normalized block tree, free of the Notion SDK's
// types, plus the rule that finds a page id in what an owner pastes (a page URL or a bare id).

/** One run of text with its annotations; `href` is the link Notion gave it, not yet checked. */
export interface NotionRichText {
  readonly text: string
  readonly href: string | null
  readonly bold: boolean
  readonly italic: boolean
  readonly strikethrough: boolean
  readonly underline: boolean
  readonly code: boolean
}

export type NotionRichTexts = ReadonlyArray<NotionRichText>

/** Text blocks with no field of their own. */
export type NotionPlainTextKind =
  | "paragraph"
  | "heading_1"
  | "heading_2"
  | "heading_3"
  | "quote"
  | "bulleted_list_item"
  | "numbered_list_item"
  | "toggle"

export interface NotionTextBlock {
  readonly kind: NotionPlainTextKind
  readonly id: string
  readonly text: NotionRichTexts
  readonly children: ReadonlyArray<NotionBlock>
}

export interface NotionToDoBlock {
  readonly kind: "to_do"
  readonly id: string
  readonly text: NotionRichTexts
  readonly children: ReadonlyArray<NotionBlock>
  readonly checked: boolean
}

export interface NotionCalloutBlock {
  readonly kind: "callout"
  readonly id: string
  readonly text: NotionRichTexts
  readonly children: ReadonlyArray<NotionBlock>
  /** An emoji; other icon kinds (files, custom emoji) are dropped. */
  readonly icon: string | null
}

export interface NotionCodeBlock {
  readonly kind: "code"
  readonly id: string
  readonly text: NotionRichTexts
  readonly language: string
}

export interface NotionDividerBlock {
  readonly kind: "divider"
  readonly id: string
}

/**
 * Where a media block's bytes are. A hosted file's URL expires within the hour, so we cache the
 * bytes and serve our own copy; an external URL is a stable address on the web.
 */
export type NotionMediaSource =
  | { readonly hosted: true; readonly url: string }
  | { readonly hosted: false; readonly url: string }

export type NotionMediaKind = "image" | "file" | "pdf" | "video" | "audio"

export interface NotionMediaBlock {
  readonly kind: NotionMediaKind
  readonly id: string
  readonly source: NotionMediaSource
  readonly caption: NotionRichTexts
  readonly name: string | null
}

export interface NotionChildPageBlock {
  readonly kind: "child_page"
  readonly id: string
  readonly title: string
}

export type NotionLinkKind = "bookmark" | "embed" | "link_preview"

export interface NotionLinkBlock {
  readonly kind: NotionLinkKind
  readonly id: string
  readonly url: string
  readonly caption: NotionRichTexts
}

export interface NotionEquationBlock {
  readonly kind: "equation"
  readonly id: string
  readonly expression: string
}

export interface NotionTableBlock {
  readonly kind: "table"
  readonly id: string
  readonly hasColumnHeader: boolean
  /** rows -> cells -> the cell's rich text. */
  readonly rows: ReadonlyArray<ReadonlyArray<NotionRichTexts>>
}

/** A block we do not show (databases, breadcrumbs, ...); kept so a refresh can report it. */
export interface NotionUnsupportedBlock {
  readonly kind: "unsupported"
  readonly id: string
  readonly type: string
}

export type NotionBlock =
  | NotionTextBlock
  | NotionToDoBlock
  | NotionCalloutBlock
  | NotionCodeBlock
  | NotionDividerBlock
  | NotionMediaBlock
  | NotionChildPageBlock
  | NotionLinkBlock
  | NotionEquationBlock
  | NotionTableBlock
  | NotionUnsupportedBlock

export interface NotionPage {
  /** Dashed lowercase UUID. */
  readonly id: string
  readonly title: string
  /** An emoji, or null. */
  readonly icon: string | null
  /** ISO 8601. */
  readonly lastEditedTime: string
  readonly blocks: ReadonlyArray<NotionBlock>
}

const DASHED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const COMPACT = /^[0-9a-f]{32}$/i
// A Notion URL's last path segment is `Some-Title-<32 hex>` or the bare id.
const SEGMENT_ID = /(?:^|-)([0-9a-f]{32})$/i
const NOTION_URL = /^https?:\/\/([a-z0-9.-]+)(?::\d+)?(\/[^?#]*)?(\?[^#]*)?(#.*)?$/i
const NOTION_HOST = /^(?:(?:www\.)?notion\.(?:so|com)|(?:[a-z0-9-]+\.)?notion\.site)$/i

const dashed = (hex: string) => {
  const h = hex.toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/**
 * The page id in a Notion page URL (notion.so, notion.com, notion.site and its subdomains) or a
 * bare id (32 hex digits or a dashed UUID), as a dashed lowercase UUID; undefined when none. A URL
 * with `p=<id>` (a page opened over a database view) names that page rather than the database.
 */
export const notionPageIdFrom = (input: string): string | undefined => {
  const trimmed = input.trim()
  if (DASHED.test(trimmed)) return trimmed.toLowerCase()
  if (COMPACT.test(trimmed)) return dashed(trimmed)
  const url = NOTION_URL.exec(trimmed)
  if (url === null || !NOTION_HOST.test(url[1] ?? "")) return undefined
  const peek = /[?&]p=([0-9a-f]{32})(?:&|$)/i.exec(url[3] ?? "")
  if (peek?.[1] !== undefined) return dashed(peek[1])
  const segments = (url[2] ?? "").split("/").filter((s) => s !== "")
  const last = segments[segments.length - 1]
  if (last === undefined) return undefined
  if (DASHED.test(last)) return last.toLowerCase()
  const match = SEGMENT_ID.exec(last)
  return match?.[1] === undefined ? undefined : dashed(match[1])
}
