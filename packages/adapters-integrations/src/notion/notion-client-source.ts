// NotionSource over the official Notion client (@notionhq/client): a page and its whole block tree
// read through the API and mapped to the domain's blocks; hosted files downloaded with a size cap.
import {
  type NotionBlock,
  type NotionMediaKind,
  type NotionMediaSource,
  type NotionPage,
  type NotionRichTexts,
  NotionSource,
  NotionSourceError,
  type NotionSourceErrorReason,
  notionPageIdFrom
} from "@folio/domain"
import {
  APIErrorCode,
  type BlockObjectResponse,
  Client,
  InvalidPathParameterError,
  isFullBlock,
  isFullPage,
  isHTTPResponseError,
  type PageObjectResponse,
  RequestTimeoutError,
  type RichTextItemResponse
} from "@notionhq/client"
import { Duration, Effect, Layer, Result } from "effect"
import { clientSpan, peerOf } from "../outbound/client-span.js"

/**
 * The API version we speak, pinned so that an SDK upgrade cannot change response shapes under us
 * (it is also the client's default in 5.26).
 */
export const NOTION_API_VERSION = "2025-09-03"

/** A 429's Retry-After is honoured up to this many seconds per wait. */
export const NOTION_MAX_RETRY_WAIT_SECONDS = 30

export interface NotionClientSourceOptions {
  /** The integration token; undefined turns the feature off. */
  readonly token: string | undefined
  /** The API origin (the client appends `/v1/`); Notion's own by default. */
  readonly baseUrl?: string | undefined
  /** Per request (an API call, or a whole file download). */
  readonly timeoutMs?: number | undefined
  /** Retries of a rate-limited request (429) before giving up with rate_limited. */
  readonly maxRetries?: number | undefined
  /** A page with more blocks than this (all levels) fails with too_large. */
  readonly maxBlocks?: number | undefined
}

type ClientOptions = NonNullable<ConstructorParameters<typeof Client>[0]>
type SupportedFetch = NonNullable<ClientOptions["fetch"]>

const sourceError = (reason: NotionSourceErrorReason, message: string, retryAfterSeconds?: number) =>
  new NotionSourceError(
    retryAfterSeconds === undefined ? { reason, message } : { reason, message, retryAfterSeconds }
  )

const notFound = () =>
  sourceError("not_found", "the Notion page does not exist or is not shared with the integration")

const headerOf = (headers: unknown, name: string): string | undefined => {
  if (headers instanceof Headers) return headers.get(name) ?? undefined
  if (typeof headers !== "object" || headers === null) return undefined
  for (const [key, value] of Object.entries(headers))
    if (key.toLowerCase() === name && typeof value === "string") return value
  return undefined
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
const retryAfterOf = (headers: unknown): number | undefined => {
  const value = headerOf(headers, "retry-after")?.trim()
  if (value === undefined || value === "") return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, (date - Date.now()) / 1000)
}

const isTimeout = (error: unknown) =>
  RequestTimeoutError.isRequestTimeoutError(error) ||
  (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError"))

/** What went wrong, in words that carry no token and no response body. */
const statusError = (status: number, headers: unknown, code?: string): NotionSourceError => {
  if (status === 401 || code === APIErrorCode.Unauthorized)
    return sourceError("unauthorized", "Notion refused the integration token")
  if (
    status === 403 ||
    status === 404 ||
    status === 410 ||
    code === APIErrorCode.ObjectNotFound ||
    code === APIErrorCode.RestrictedResource
  )
    return notFound()
  if (status === 429 || code === APIErrorCode.RateLimited)
    return sourceError("rate_limited", "Notion's rate limit was reached", retryAfterOf(headers))
  return sourceError(
    "unavailable",
    status >= 500 ? `Notion answered HTTP ${status}` : `Notion refused the request (HTTP ${status})`
  )
}

const failureOf =
  (timeoutMs: number) =>
  (error: unknown): NotionSourceError => {
    if (error instanceof NotionSourceError) return error
    if (isHTTPResponseError(error)) return statusError(error.status, error.headers, error.code)
    if (isTimeout(error)) return sourceError("unavailable", `Notion did not answer within ${timeoutMs} ms`)
    if (InvalidPathParameterError.isInvalidPathParameterError(error))
      return sourceError("not_found", "the Notion id is not valid")
    return sourceError("unavailable", "Notion could not be reached")
  }

/**
 * The client's own timeout only stops waiting, leaving the request running; this fetch aborts it,
 * both at the timeout and when the fiber that asked is interrupted.
 */
const abortableFetch =
  (
    signal: AbortSignal,
    timeoutMs: number,
    status: (code: number) => void = () => undefined
  ): SupportedFetch =>
  (url, init) => {
    const request: RequestInit = { signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }
    if (init?.method !== undefined) request.method = init.method
    if (init?.headers !== undefined) request.headers = init.headers
    if (init?.body !== undefined) request.body = init.body
    // The client's SupportedResponse is a structural subset of fetch's Response; with the DOM lib
    // loaded (the browser tests' program) their `body` stream types differ only in name.
    return fetch(url, request).then((response) => {
      status(response.status)
      return response
    }) as unknown as ReturnType<SupportedFetch>
  }

const rich = (items: ReadonlyArray<RichTextItemResponse>): NotionRichTexts =>
  items.map((item) => ({
    text: item.plain_text,
    href: item.href,
    bold: item.annotations.bold,
    italic: item.annotations.italic,
    strikethrough: item.annotations.strikethrough,
    underline: item.annotations.underline,
    code: item.annotations.code
  }))

const emoji = (icon: PageObjectResponse["icon"]): string | null =>
  icon?.type === "emoji" ? icon.emoji : null

const titleOf = (page: PageObjectResponse): string => {
  for (const property of Object.values(page.properties))
    if (property.type === "title") return property.title.map((t) => t.plain_text).join("")
  return ""
}

interface MediaContent {
  readonly type: string
  readonly file?: { readonly url: string }
  readonly external?: { readonly url: string }
  readonly caption: ReadonlyArray<RichTextItemResponse>
  readonly name?: string
}

const mediaSource = (content: MediaContent): NotionMediaSource | undefined => {
  if (content.type === "file" && content.file !== undefined) return { hosted: true, url: content.file.url }
  if (content.type === "external" && content.external !== undefined)
    return { hosted: false, url: content.external.url }
  return undefined
}

const mediaBlock = (kind: NotionMediaKind, id: string, content: MediaContent): NotionBlock => {
  const source = mediaSource(content)
  if (source === undefined) return { kind: "unsupported", id, type: kind }
  return { kind, id, source, caption: rich(content.caption), name: content.name ?? null }
}

export const makeNotionClientSource = (options: NotionClientSourceOptions) => {
  const token = options.token === "" ? undefined : options.token
  const timeoutMs = options.timeoutMs ?? 30_000
  const maxRetries = options.maxRetries ?? 3
  const maxBlocks = options.maxBlocks ?? 20_000
  const toFailure = failureOf(timeoutMs)

  if (token === undefined) {
    const off = Effect.fail(sourceError("unauthorized", "no Notion integration token is configured"))
    return NotionSource.of({ enabled: false, page: () => off, asset: () => off })
  }

  // One client per call: its fetch carries the calling fiber's abort signal.
  const clientFor = (signal: AbortSignal, status?: (code: number) => void) =>
    new Client({
      auth: token,
      ...(options.baseUrl === undefined ? {} : { baseUrl: options.baseUrl }),
      timeoutMs,
      notionVersion: NOTION_API_VERSION,
      // The client's retries sleep in a bare promise (not interruptible) and cap waits at 60 s;
      // ours sleep in the fiber, cap waits at 30 s and report the last Retry-After.
      retry: false,
      // Its logger would print request failures (and at debug, bodies) to the console.
      logger: () => undefined,
      fetch: abortableFetch(signal, timeoutMs, status)
    })

  const withRetries = <A>(once: Effect.Effect<A, NotionSourceError>): Effect.Effect<A, NotionSourceError> =>
    Effect.gen(function* () {
      for (let attempt = 0; ; attempt++) {
        const result = yield* Effect.result(once)
        if (Result.isSuccess(result)) return result.success
        const error = result.failure
        if (error.reason !== "rate_limited" || attempt >= maxRetries) return yield* Effect.fail(error)
        const wait = Math.min(error.retryAfterSeconds ?? 2 ** attempt, NOTION_MAX_RETRY_WAIT_SECONDS)
        yield* Effect.sleep(Duration.millis(Math.round(wait * 1000)))
      }
    })

  // Each API call a client span: Notion's host and the status; never the token, a page's id or content.
  const notionPeer = { "folio.outbound": "notion", ...peerOf(options.baseUrl ?? "https://api.notion.com") }
  const call = <A>(run: (client: Client) => Promise<A>) =>
    withRetries(
      clientSpan("notion", notionPeer, (status) =>
        Effect.tryPromise({ try: (signal) => run(clientFor(signal, status)), catch: toFailure })
      )
    )

  /** Counts the blocks read for one page, so a huge page stops early instead of filling memory. */
  interface Budget {
    read: number
  }

  const listChildren = (blockId: string, budget: Budget) =>
    Effect.gen(function* () {
      const all: Array<BlockObjectResponse> = []
      let cursor: string | undefined
      do {
        const startCursor = cursor
        const response = yield* call((client) =>
          client.blocks.children.list({
            block_id: blockId,
            page_size: 100,
            ...(startCursor === undefined ? {} : { start_cursor: startCursor })
          })
        )
        budget.read += response.results.length
        if (budget.read > maxBlocks)
          return yield* Effect.fail(sourceError("too_large", `the page has more than ${maxBlocks} blocks`))
        // A partial block (no type) is one the integration may not read.
        for (const block of response.results) if (isFullBlock(block)) all.push(block)
        cursor = response.has_more && response.next_cursor !== null ? response.next_cursor : undefined
      } while (cursor !== undefined)
      return all
    })

  const childrenOf = (block: BlockObjectResponse, budget: Budget) =>
    block.has_children ? descend(block.id, budget) : Effect.succeed<ReadonlyArray<NotionBlock>>([])

  const descend = (
    blockId: string,
    budget: Budget
  ): Effect.Effect<ReadonlyArray<NotionBlock>, NotionSourceError> =>
    listChildren(blockId, budget).pipe(
      Effect.flatMap((blocks) => Effect.forEach(blocks, (block) => toDomain(block, budget))),
      Effect.map((mapped) => mapped.flat())
    )

  const toDomain = (
    b: BlockObjectResponse,
    budget: Budget
  ): Effect.Effect<ReadonlyArray<NotionBlock>, NotionSourceError> => {
    const one = (block: NotionBlock) => Effect.succeed<ReadonlyArray<NotionBlock>>([block])
    const withChildren = (make: (children: ReadonlyArray<NotionBlock>) => NotionBlock) =>
      childrenOf(b, budget).pipe(Effect.map((children) => [make(children)]))
    const type: string = b.type
    switch (b.type) {
      case "paragraph":
        return withChildren((children) => ({
          kind: "paragraph",
          id: b.id,
          text: rich(b.paragraph.rich_text),
          children
        }))
      case "heading_1":
        return withChildren((children) => ({
          kind: "heading_1",
          id: b.id,
          text: rich(b.heading_1.rich_text),
          children
        }))
      case "heading_2":
        return withChildren((children) => ({
          kind: "heading_2",
          id: b.id,
          text: rich(b.heading_2.rich_text),
          children
        }))
      case "heading_3":
        return withChildren((children) => ({
          kind: "heading_3",
          id: b.id,
          text: rich(b.heading_3.rich_text),
          children
        }))
      // The domain stops at three heading levels (the page title is the fourth).
      case "heading_4":
        return withChildren((children) => ({
          kind: "heading_3",
          id: b.id,
          text: rich(b.heading_4.rich_text),
          children
        }))
      case "quote":
        return withChildren((children) => ({
          kind: "quote",
          id: b.id,
          text: rich(b.quote.rich_text),
          children
        }))
      case "bulleted_list_item":
        return withChildren((children) => ({
          kind: "bulleted_list_item",
          id: b.id,
          text: rich(b.bulleted_list_item.rich_text),
          children
        }))
      case "numbered_list_item":
        return withChildren((children) => ({
          kind: "numbered_list_item",
          id: b.id,
          text: rich(b.numbered_list_item.rich_text),
          children
        }))
      case "toggle":
        return withChildren((children) => ({
          kind: "toggle",
          id: b.id,
          text: rich(b.toggle.rich_text),
          children
        }))
      case "to_do":
        return withChildren((children) => ({
          kind: "to_do",
          id: b.id,
          text: rich(b.to_do.rich_text),
          children,
          checked: b.to_do.checked
        }))
      case "callout":
        return withChildren((children) => ({
          kind: "callout",
          id: b.id,
          text: rich(b.callout.rich_text),
          children,
          icon: emoji(b.callout.icon)
        }))
      case "code":
        return one({ kind: "code", id: b.id, text: rich(b.code.rich_text), language: b.code.language })
      case "divider":
        return one({ kind: "divider", id: b.id })
      case "image":
        return one(mediaBlock("image", b.id, b.image))
      case "file":
        return one(mediaBlock("file", b.id, b.file))
      case "pdf":
        return one(mediaBlock("pdf", b.id, b.pdf))
      case "video":
        return one(mediaBlock("video", b.id, b.video))
      case "audio":
        return one(mediaBlock("audio", b.id, b.audio))
      // Child pages are mirrored as pages of their own, never read as part of this one.
      case "child_page":
        return one({ kind: "child_page", id: notionPageIdFrom(b.id) ?? b.id, title: b.child_page.title })
      case "bookmark":
        return one({ kind: "bookmark", id: b.id, url: b.bookmark.url, caption: rich(b.bookmark.caption) })
      case "embed":
        return one({ kind: "embed", id: b.id, url: b.embed.url, caption: rich(b.embed.caption) })
      case "link_preview":
        return one({ kind: "link_preview", id: b.id, url: b.link_preview.url, caption: [] })
      case "equation":
        return one({ kind: "equation", id: b.id, expression: b.equation.expression })
      case "table":
        return listChildren(b.id, budget).pipe(
          Effect.map((rows) => [
            {
              kind: "table",
              id: b.id,
              hasColumnHeader: b.table.has_column_header,
              rows: rows.flatMap((row) => (row.type === "table_row" ? [row.table_row.cells.map(rich)] : []))
            }
          ])
        )
      // Layout and sync containers: their content belongs in the flow of the page, in order.
      case "column_list":
      case "column":
      case "synced_block":
      case "tab":
        return childrenOf(b, budget)
      case "unsupported":
        return one({ kind: "unsupported", id: b.id, type: b.unsupported.block_type ?? "unsupported" })
      default:
        return one({ kind: "unsupported", id: b.id, type })
    }
  }

  const page = (pageId: string): Effect.Effect<NotionPage, NotionSourceError> => {
    const id = notionPageIdFrom(pageId)
    if (id === undefined) return Effect.fail(sourceError("not_found", "the Notion id is not valid"))
    return Effect.gen(function* () {
      const response = yield* call((client) => client.pages.retrieve({ page_id: id }))
      // A page in the trash is gone for a reader of the mirror.
      if (!isFullPage(response) || response.in_trash) return yield* Effect.fail(notFound())
      const blocks = yield* descend(id, { read: 0 })
      return {
        id: notionPageIdFrom(response.id) ?? id,
        title: titleOf(response),
        icon: emoji(response.icon),
        lastEditedTime: response.last_edited_time,
        blocks
      }
    })
  }

  const download = async (url: string, maxBytes: number, signal: AbortSignal) => {
    const response = await fetch(url, { signal, redirect: "follow" })
    if (!response.ok) {
      await response.body?.cancel()
      throw statusError(response.status, response.headers)
    }
    const tooLarge = () => sourceError("too_large", `the file is larger than ${maxBytes} bytes`)
    const declared = Number(response.headers.get("content-length") ?? Number.NaN)
    if (declared > maxBytes) {
      await response.body?.cancel()
      throw tooLarge()
    }
    const chunks: Array<Uint8Array> = []
    let total = 0
    if (response.body !== null) {
      const reader = response.body.getReader()
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        total += value.byteLength
        if (total > maxBytes) {
          await reader.cancel()
          throw tooLarge()
        }
        chunks.push(value)
      }
    }
    const bytes = new Uint8Array(total)
    let at = 0
    for (const chunk of chunks) {
      bytes.set(chunk, at)
      at += chunk.byteLength
    }
    return { bytes, contentType: response.headers.get("content-type") }
  }

  // Hosted files are presigned URLs: the token is never sent with them (nor to any other host).
  const asset = (url: string, maxBytes: number) => {
    if (!/^https?:\/\//i.test(url))
      return Effect.fail(sourceError("not_found", "the file address is not an http(s) URL"))
    return withRetries(
      // The file's host only: its URL is presigned (the signature is in the query).
      clientSpan(
        "GET",
        { "http.request.method": "GET", "folio.outbound": "notion-file", ...peerOf(url) },
        () =>
          Effect.tryPromise({
            try: (signal) =>
              download(url, maxBytes, AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)])),
            catch: (error) =>
              error instanceof NotionSourceError
                ? error
                : isTimeout(error)
                  ? sourceError("unavailable", `the file did not arrive within ${timeoutMs} ms`)
                  : sourceError("unavailable", "the file could not be fetched")
          })
      )
    )
  }

  return NotionSource.of({ enabled: true, page, asset })
}

/** NotionSource over the Notion API; without a token, `enabled` is false and every call unauthorized. */
export const NotionClientSourceLive = (options: NotionClientSourceOptions) =>
  Layer.succeed(NotionSource, makeNotionClientSource(options))
