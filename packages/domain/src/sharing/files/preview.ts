// `GET /resources/{id}/preview`: a small WebP of a resource for lists and pickers: a thumbnail of an
// image (or of a collection's first image), a drawn card for everything else. Each is drawn once and
// kept in the blob store under the resource's prefix (deleted with it); the key names what the
// picture shows, so a change of file or title draws a new one. Reading a preview is never a view.
import { Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { sha256Hex } from "../../kernel/digest.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { ResourceNotFound, ResourceOfAnotherAccount } from "../errors.js"
import { MediaTools, PREVIEW_CONTENT_TYPE, type PreviewCard } from "../ports/media.js"
import { ResourceRepository } from "../ports/resources.js"
import { type ResourceRecord, resourceBlobPrefix, type StoredFile } from "../resources/resource.js"
import { ownedBySlug } from "../resources/use-cases.js"
import { mediaKindOf } from "./media-types.js"
import { isUuid } from "../../kernel/ids.js"

/** Previews fit in this many pixels square. */
export const PREVIEW_SIZE = 320

/** A byte count as people read it (`1.4 MB`). */
export const formatBytes = (bytes: number): string => {
  if (bytes < 1000) return `${bytes} B`
  const units = ["kB", "MB", "GB", "TB"]
  let value = bytes / 1000
  let unit = 0
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`
}

/** The short badge word of a media type (`PDF`, `MP4`, `TEXT`). */
const badgeOf = (contentType: string): string => {
  if (contentType === "text/plain") return "TEXT"
  const sub = contentType.split("/")[1] ?? "file"
  const word =
    sub
      .split(/[.+-]/)
      .filter((w) => w !== "vnd" && w !== "x")
      .pop() ?? "file"
  return word.slice(0, 6).toUpperCase()
}

/** What the preview of `r` shows: an image to thumbnail, or a card. */
const subjectOf = (r: ResourceRecord): { readonly image?: StoredFile; readonly card: PreviewCard } => {
  const title = r.title ?? r.slug
  switch (r.type) {
    case "image":
      return {
        image: r.data,
        card: {
          title: r.title ?? r.data.fileName,
          subtitle: formatBytes(r.data.size),
          badge: badgeOf(r.data.contentType)
        }
      }
    case "file":
      return {
        card: {
          title: r.title ?? r.data.fileName,
          subtitle: `${r.data.fileName} · ${formatBytes(r.data.size)}`,
          badge: badgeOf(r.data.contentType)
        }
      }
    case "collection": {
      const items = r.data.items ?? []
      const first = items.find((i) => i.kind === "image")
      return {
        ...(first === undefined ? {} : { image: first.file }),
        card: { title, subtitle: `${items.length} item${items.length === 1 ? "" : "s"}`, badge: "ALBUM" }
      }
    }
    case "link": {
      const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]+)/i.exec(r.data.targetUrl)?.[1] ?? r.data.targetUrl
      return { card: { title, subtitle: host, badge: "LINK" } }
    }
    default:
      return { card: { title, subtitle: `/s/${r.slug}`, badge: r.type.toUpperCase().slice(0, 6) } }
  }
}

/** The caller's resource by id (the spec's path names an id) or by slug (as every resource route). */
const ownedByIdOrSlug = (idOrSlug: string) =>
  Effect.gen(function* () {
    if (!isUuid(idOrSlug)) return yield* ownedBySlug(idOrSlug)
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const id = idOrSlug.toLowerCase()
    const own = yield* repo.get(principal.tenant, id)
    if (Option.isSome(own)) return own.value
    return yield* (yield* repo.existsAnyTenant(id)) ? new ResourceOfAnotherAccount() : new ResourceNotFound()
  })

/** The preview of one resource: drawn at most once per picture, then read back. */
export const previewOf = (r: ResourceRecord) => drawPreview(r, subjectOf(r))

/** A preview of one stored file of `owner` (a collection item): a thumbnail, or a card. */
export const filePreview = (owner: ResourceRecord, file: StoredFile) =>
  drawPreview(owner, {
    ...(mediaKindOf(file.contentType) === "image" ? { image: file } : {}),
    card: { title: file.fileName, subtitle: formatBytes(file.size), badge: badgeOf(file.contentType) }
  })

/** Draws `subject` once, kept under `owner`'s prefix (deleted with it), and reads it back after. */
const drawPreview = (
  owner: ResourceRecord,
  subject: { readonly image?: StoredFile; readonly card: PreviewCard }
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const media = yield* MediaTools
    const key = `${resourceBlobPrefix(owner)}previews/${sha256Hex(
      JSON.stringify([PREVIEW_SIZE, subject.image?.blobKey ?? null, subject.card])
    ).slice(0, 24)}.webp`
    const kept = yield* blobs.get(key)
    if (Option.isSome(kept)) return kept.value.bytes
    const thumbnail =
      subject.image === undefined
        ? Option.none<Uint8Array>()
        : yield* Effect.flatMap(blobs.openRead(subject.image.blobKey), (opened) =>
            Option.isNone(opened)
              ? Effect.succeed(Option.none<Uint8Array>())
              : media.thumbnail(opened.value.body, PREVIEW_SIZE)
          )
    const bytes = Option.isSome(thumbnail) ? thumbnail.value : yield* media.card(subject.card, PREVIEW_SIZE)
    yield* blobs.put(key, { bytes, contentType: PREVIEW_CONTENT_TYPE })
    return bytes
  })

/** `GET /resources/{id}/preview`: the caller's resource's preview image (WebP). */
export const resourcePreview = (idOrSlug: string) => Effect.flatMap(ownedByIdOrSlug(idOrSlug), previewOf)
