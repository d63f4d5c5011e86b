// The bytes of a file or image, as its public page links them: `/s/{slug}/content` (inline only for
// types that cannot run script here; everything else an attachment) and `/s/{slug}/download`
// (always an attachment). Every answer carries nosniff and a CSP that sandboxes the response, so no
// upload can ever act as a page of our origin. One byte range per request is served (resumable
// downloads, media seeking), under `If-Range` against the bytes' ETag and Last-Modified, so a resumed
// download of a file that changed meanwhile gets the whole new file; a view counts once per visit, on
// the request that starts at byte 0.
import {
  attachmentDisposition,
  type BlobStore,
  decideBytesView,
  INLINE_MEDIA_TYPES,
  type PublicCookie,
  type ResourceRecord,
  resourcePublicPath,
  type SharingFiles,
  type StoredFile,
  storedFileEtag,
  noindexFor
} from "@folio/domain"
import { Clock, Effect, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import {
  cookiesOf,
  NO_STORE,
  newVisitorId,
  publicCookiesOf,
  recordDecided,
  robotsHeaders
} from "./public-visit.js"
import { type Deps, gateOf, page } from "./serving.js"
import { renderNotFoundPage } from "../pages/page.js"
import { expiringTokens } from "./signed-token.js"

/**
 * The signed mark a file's page gives its visitor: the bytes may be taken for a while even after
 * that page view used the last of `max_views` (the visit finishes what it opened). Signed, scoped to
 * the resource's path, short-lived: it cannot be made up, moved or kept.
 */
export const DOWNLOAD_GRANT_COOKIE = "svc_grant"
export const DOWNLOAD_GRANT_SECONDS = 30 * 60

const grants = expiringTokens("file-grant")

/** The cookie of a grant to `r`'s bytes from `nowSeconds`. */
export const downloadGrantCookie = (
  secret: string,
  r: ResourceRecord,
  nowSeconds: number,
  secure: boolean
): PublicCookie => ({
  name: DOWNLOAD_GRANT_COOKIE,
  value: grants.make(secret, r.id, nowSeconds + DOWNLOAD_GRANT_SECONDS),
  maxAgeSeconds: DOWNLOAD_GRANT_SECONDS,
  path: resourcePublicPath(r.slug),
  secure
})

/** Whether a request carries a live grant to `resourceId`'s bytes. */
export const hasDownloadGrant = (
  secret: string,
  resourceId: string,
  token: string | undefined,
  nowSeconds: number
): boolean => grants.check(secret, resourceId, token, nowSeconds) !== undefined

/** The CSP of served bytes: nothing may load or run, and a browser that renders them sandboxes them. */
export const BYTES_CSP =
  "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox"

export type ByteRange = { readonly start: number; readonly end: number }

/**
 * The one range a `Range` header asks of `size` bytes: undefined for the whole (no header, several
 * ranges or another unit: the whole is a valid answer to those), "unsatisfiable" when it starts past
 * the end.
 */
export const rangeOf = (
  header: string | undefined,
  size: number
): ByteRange | "unsatisfiable" | undefined => {
  if (header === undefined) return undefined
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (m === null) return undefined
  const [, from = "", to = ""] = m
  if (from === "" && to === "") return undefined
  if (from === "") {
    const suffix = Number(to)
    if (suffix === 0) return "unsatisfiable"
    return size === 0 ? "unsatisfiable" : { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(from)
  const end = to === "" ? size - 1 : Math.min(Number(to), size - 1)
  if (!Number.isSafeInteger(start) || start >= size) return "unsatisfiable"
  if (end < start) return undefined
  return { start, end }
}

/** What identifies the bytes served: their strong ETag and when they last changed. */
export interface BytesValidators {
  readonly etag: string
  readonly lastModified: Date
}

/** An HTTP date (IMF-fixdate), which holds whole seconds. */
const httpDate = (at: Date) => at.toUTCString()

/**
 * Whether `If-Range` (absent: yes) names the bytes now stored, so a range of them may be sent
 * (RFC 9110 13.1.5). An entity tag must equal the strong ETag (a weak one never matches); a date
 * must equal Last-Modified to the second. Anything else, or a date that does not parse, sends the
 * whole file.
 */
export const ifRangeHolds = (header: string | undefined, validators: BytesValidators): boolean => {
  if (header === undefined) return true
  const value = header.trim()
  if (value.startsWith('"') || value.startsWith("W/")) return value === validators.etag
  const at = Date.parse(value)
  return !Number.isNaN(at) && httpDate(new Date(at)) === httpDate(validators.lastModified)
}

/** The validators of `file`, last written at `lastModified`. */
export const validatorsOf = (file: StoredFile, lastModified: Date): BytesValidators => ({
  etag: storedFileEtag(file),
  lastModified
})

/**
 * What a request for `file`'s bytes gets, worked out once: the validators, and the range (its
 * `Range`, unless its `If-Range` names other bytes: then the whole file).
 */
export const requestedBytes = (
  request: HttpServerRequest.HttpServerRequest,
  file: StoredFile,
  lastModified: Date
) => {
  const validators = validatorsOf(file, lastModified)
  const range = ifRangeHolds(request.headers["if-range"], validators)
    ? rangeOf(request.headers.range, file.size)
    : undefined
  return { validators, range }
}

type RequestedBytes = ReturnType<typeof requestedBytes>

/** How a stored file's bytes are answered: inline or as an attachment, and with which type. */
const presentation = (file: StoredFile, mode: "content" | "download") => {
  const inline = mode === "content" && INLINE_MEDIA_TYPES.includes(file.contentType)
  return {
    contentType: file.contentType === "text/plain" ? "text/plain; charset=utf-8" : file.contentType,
    disposition: inline
      ? attachmentDisposition(file.fileName).replace(/^attachment/, "inline")
      : attachmentDisposition(file.fileName)
  }
}

/**
 * Streams `file` (a whole or a range) with the headers of served bytes, its ETag and Last-Modified
 * (`lastModified`: when these bytes were written, or a later time that moves whenever they change).
 */
export const streamStoredFile = (
  blobs: BlobStore["Service"],
  request: HttpServerRequest.HttpServerRequest,
  file: StoredFile,
  mode: "content" | "download",
  extra: {
    readonly headers: Readonly<Record<string, string>>
    readonly cookies: ReadonlyArray<PublicCookie>
    readonly lastModified: Date
    /** The request's validators and range, when the caller has worked them out already. */
    readonly requested?: RequestedBytes
  }
) =>
  Effect.gen(function* () {
    const { validators, range } = extra.requested ?? requestedBytes(request, file, extra.lastModified)
    const common = {
      ...extra.headers,
      etag: validators.etag,
      "last-modified": httpDate(validators.lastModified),
      "accept-ranges": "bytes",
      "content-disposition": presentation(file, mode).disposition,
      "content-security-policy": BYTES_CSP,
      "x-content-type-options": "nosniff",
      "cache-control": NO_STORE
    }
    if (range === "unsatisfiable")
      return HttpServerResponse.empty({
        status: 416,
        headers: { ...common, "content-range": `bytes */${file.size}` }
      })
    const opened = yield* blobs.openRead(file.blobKey, range)
    if (Option.isNone(opened)) return page(renderNotFoundPage(), 404)
    const { body, size } = opened.value
    const length = range === undefined ? size : range.end - range.start + 1
    return HttpServerResponse.stream(body, {
      status: range === undefined ? 200 : 206,
      contentType: presentation(file, mode).contentType,
      contentLength: length,
      headers:
        range === undefined
          ? common
          : { ...common, "content-range": `bytes ${range.start}-${range.end}/${size}` },
      cookies: cookiesOf(extra.cookies)
    })
  })

/**
 * Whether a request reads from the first byte (no range, one starting at 0, or an `If-Range` that no
 * longer holds): the one that is a view.
 */
export const startsAtZero = ({ range }: RequestedBytes) =>
  range === undefined || (range !== "unsatisfiable" && range.start === 0)

/**
 * `/s/{slug}/content` and `/s/{slug}/download` of a file or image resource `r`, found and servable:
 * the state page when it cannot be shown, the page (with its password form) when it is locked, else
 * the bytes, counting a view once per visit.
 */
export const serveResourceBytes = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  mode: "content" | "download"
) =>
  Effect.gen(function* () {
    if (r.type !== "file" && r.type !== "image") return page(renderNotFoundPage(), 404)
    // The visit whose page view reached the limit may still take the file it opened the page for:
    // its page gave it a signed grant (an unsigned mark could be made up by anyone).
    const now = yield* Clock.currentTimeMillis
    const granted = hasDownloadGrant(
      deps.unlockSecret,
      r.id,
      request.cookies[DOWNLOAD_GRANT_COOKIE],
      Math.floor(now / 1000)
    )
    const gate = gateOf(deps, request, r, now, granted)
    if (gate !== undefined) return gate
    // A range past byte 0 continues a download already counted.
    const requested = requestedBytes(request, r.data, r.updatedAt)
    const cookies = publicCookiesOf(request.headers.cookie)
    const decided = decideBytesView(
      r,
      { method: request.method, secureCookies: deps.secureCookies, newVisitorId },
      { visitor: cookies.visitor, seen: cookies.seen },
      startsAtZero(requested),
      new Date(now)
    )
    recordDecided(deps, r, decided, request, Option.getOrUndefined(request.remoteAddress))
    const headers = robotsHeaders(noindexFor(r))
    // The resource's updatedAt moves with every write of it, so with every change of its bytes.
    return yield* streamStoredFile(deps.blobs, request, r.data, mode, {
      headers,
      cookies: decided.cookies,
      lastModified: r.updatedAt,
      requested
    })
  })

/** A collection's item behind the collection's password and window, or the page that answers instead. */
const openCollectionItem = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  itemId: string
) =>
  Effect.map(Clock.currentTimeMillis, (now) => {
    const item = r.type === "collection" ? (r.data.items ?? []).find((i) => i.id === itemId) : undefined
    if (item === undefined) return { answer: page(renderNotFoundPage(), 404) }
    const gate = gateOf(deps, request, r, now)
    return gate === undefined ? { item } : { answer: gate }
  })

/**
 * `/s/{slug}/items/{itemId}/content|download` of a collection: the item's bytes under the
 * collection's password and window. The gallery page counted the view; its items count none.
 */
export const serveCollectionItemBytes = (
  deps: Deps,
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  itemId: string,
  mode: "content" | "download"
) =>
  Effect.gen(function* () {
    const opened = yield* openCollectionItem(deps, request, r, itemId)
    if (!("item" in opened)) return opened.answer
    const { item } = opened
    const headers = robotsHeaders(noindexFor(r))
    // An item's bytes never change after it is added.
    return yield* streamStoredFile(deps.blobs, request, item.file, mode, {
      headers,
      cookies: [],
      lastModified: new Date(item.addedAt)
    })
  })

/** `/s/{slug}/items/{itemId}/preview`: a collection item's thumbnail (or card), as the gallery shows it. */
export const serveCollectionItemPreview = (
  deps: Deps & { readonly files: SharingFiles["Service"] },
  request: HttpServerRequest.HttpServerRequest,
  r: ResourceRecord,
  itemId: string
) =>
  Effect.gen(function* () {
    const opened = yield* openCollectionItem(deps, request, r, itemId)
    if (!("item" in opened)) return opened.answer
    const { item } = opened
    const bytes = yield* deps.files.filePreview(r, item.file)
    return HttpServerResponse.uint8Array(bytes, {
      contentType: "image/webp",
      headers: { "x-content-type-options": "nosniff", "cache-control": NO_STORE }
    })
  })
