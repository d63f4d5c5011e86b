// The bio page routes: replace the profile and pages (PATCH), avatar and cover, file blocks and
// thumbnails (each an upload), and the owner's view of what visitors sent through its forms. Every
// write is a CAS on the row version (X-Resource-If-Match when sent); media bytes count against the
// quota in the write's transaction; files a write stops naming are deleted once it has landed, and
// an upload whose write does not land is deleted too.
import { Clock, Effect, Exit, Option, Stream } from "effect"
import { Principal } from "../../identity/principal.js"
import { csvLine } from "../../kernel/csv.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  BioBlockIdRepeated,
  BioBlockTakesNoFile,
  BioBlockTakesNoThumbnail,
  BioBlockTypeImmutable,
  BioFormFieldNameRepeated,
  BioMediaBlockNotUploaded,
  BioPageFull,
  BioPageIdRepeated,
  BioPageSlugRepeated,
  BioPageUnknown,
  FieldSentTwice,
  FieldTooLong,
  ResourceChanged,
  ResourceNotFound,
  type SharingFieldRefusal,
  StorageQuotaExceeded,
  UnsupportedMedia
} from "../errors.js"
import {
  receiveUpload,
  type StagedFile,
  type UploadBodyError,
  type UploadPart,
  UploadPolicy
} from "../files/upload.js"
import { BioSubmissions } from "../ports/bio-submissions.js"
import { ResourceRepository } from "../ports/resources.js"
import { ownedOfType } from "../resources/use-cases.js"
import { resourceBlobPrefix, resourceEtag, type StoredFile, ifMatchNames } from "../resources/resource.js"
import {
  type BioBlock,
  type BioPage,
  type BioProfile,
  type BioRecord,
  bioFilesOf,
  bioPagesOf,
  bioProfileOf,
  droppedFiles,
  MAX_BIO_BLOCKS,
  type ReplaceBioInput,
  withBio
} from "./bio.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** The caller's bio page at `slug` (403 another account's, 404 none, 400 another type). */
export const ownedBio = (slug: string) => ownedOfType(slug, "bio", "a bio page")

type Change = {
  readonly profile: BioProfile
  readonly pages: ReadonlyArray<BioPage>
  readonly theme?: string | null
}

/** A change worked out from the bio as it is (or why it is refused). */
type Changed = Effect.Effect<Change, SharingFieldRefusal | ResourceNotFound | UnsupportedMedia>

/**
 * Writes `change(current)` with a CAS, re-reading after a lost race (with `ifMatch`, the resource must
 * still be in that state at every round); then deletes the files the write stopped naming.
 */
const writeBio = (
  slug: string,
  ifMatch: string | undefined,
  change: (current: BioRecord) => Changed,
  /** Set when the write has landed, even if an interruption ends the caller right after. */
  landed?: { done: boolean }
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const blobs = yield* BlobStore
    const policy = yield* UploadPolicy
    const attempt = () =>
      Effect.gen(function* () {
        const current = yield* ownedBio(slug)
        if (ifMatch !== undefined && !ifMatchNames(ifMatch, resourceEtag(current)))
          return yield* new ResourceChanged()
        const { profile, pages, theme } = yield* change(current)
        const next = withBio(current, profile, pages, yield* now, theme)
        // The write and the mark that it landed are one uninterruptible step (see `landed`).
        const outcome = yield* Effect.uninterruptible(
          Effect.tap(repo.update(principal.tenant, next, { quotaBytes: policy.quotaBytes }), (o) =>
            Effect.sync(() => {
              if (o === "updated" && landed !== undefined) landed.done = true
            })
          )
        ).pipe(
          Effect.catchTags({
            ResourceSlugTaken: () => Effect.die(new Error("a bio write changed the slug")),
            StorageQuotaReached: () => Effect.fail(new StorageQuotaExceeded())
          })
        )
        if (outcome === "updated") {
          const gone = droppedFiles(
            bioFilesOf(bioProfileOf(current), bioPagesOf(current)),
            bioFilesOf(profile, pages)
          )
          for (const file of gone)
            yield* blobs
              .delete(file.blobKey)
              .pipe(
                Effect.catchTag("StorageError", (e) =>
                  Effect.logWarning("a replaced bio file was not deleted", e)
                )
              )
          return Option.some(next)
        }
        return Option.none()
      })
    return yield* retryOnStale(LOST_RACE_TRIES, attempt, () => new ResourceChanged())
  })

const blockPath = (p: number, b: number, field: string) => `pages.${p}.blocks.${b}.${field}`

/** `PATCH /resources/{slug}/bio`: the whole profile and every page and block. */
export const replaceBio = (slug: string, input: ReplaceBioInput, ifMatch: string | undefined) =>
  Effect.gen(function* () {
    const ids = yield* IdGen
    // Fresh ids are drawn once, before the write, so a retried round makes the same page.
    const freshIds: Array<string> = []
    for (const page of input.pages) {
      freshIds.push(yield* ids.uuidV7)
      for (const _ of page.blocks) freshIds.push(yield* ids.uuidV7)
    }
    return yield* writeBio(slug, ifMatch, (current) =>
      Effect.gen(function* () {
        const fresh = [...freshIds]
        const oldPages = new Map(bioPagesOf(current).map((p) => [p.id, p]))
        const oldBlocks = new Map(bioPagesOf(current).flatMap((p) => p.blocks.map((b) => [b.id, b] as const)))
        const slugs = new Set<string>()
        const pageIds = new Set<string>()
        const blockIds = new Set<string>()
        const pages: Array<BioPage> = []
        for (const [p, page] of input.pages.entries()) {
          if (page.id !== undefined && !oldPages.has(page.id))
            return yield* new BioPageUnknown({ field: `pages.${p}.id` })
          if (page.id !== undefined && pageIds.has(page.id))
            return yield* new BioPageIdRepeated({ field: `pages.${p}.id` })
          if (page.id !== undefined) pageIds.add(page.id)
          if (slugs.has(page.slug)) return yield* new BioPageSlugRepeated({ field: `pages.${p}.slug` })
          slugs.add(page.slug)
          const pageId = page.id ?? fresh.shift() ?? ""
          const blocks: Array<BioBlock> = []
          for (const [b, block] of page.blocks.entries()) {
            const old = block.id === undefined ? undefined : oldBlocks.get(block.id)
            const id = block.id ?? fresh.shift() ?? ""
            if (blockIds.has(id)) return yield* new BioBlockIdRepeated({ field: blockPath(p, b, "id") })
            blockIds.add(id)
            if (old !== undefined && old.type !== block.type)
              return yield* new BioBlockTypeImmutable({
                field: blockPath(p, b, "type"),
                blockId: id,
                blockType: old.type
              })
            switch (block.type) {
              case "link":
                blocks.push({
                  id,
                  type: "link",
                  title: block.title,
                  url: block.url,
                  thumbnail: old?.type === "link" ? old.thumbnail : null
                })
                break
              case "heading":
              case "text":
                blocks.push({ id, type: block.type, text: block.text })
                break
              case "image":
                if (old?.type !== "image")
                  return yield* new BioMediaBlockNotUploaded({ field: blockPath(p, b, "id"), kind: "image" })
                blocks.push({ ...old, caption: block.caption ?? null })
                break
              case "file":
                if (old?.type !== "file")
                  return yield* new BioMediaBlockNotUploaded({ field: blockPath(p, b, "id"), kind: "file" })
                blocks.push({ ...old, title: block.title ?? null })
                break
              case "form":
                if (new Set(block.fields.map((f) => f.name)).size !== block.fields.length)
                  return yield* new BioFormFieldNameRepeated({ field: blockPath(p, b, "fields") })
                blocks.push({
                  id,
                  type: "form",
                  title: block.title,
                  fields: block.fields,
                  submitLabel: block.submit_label ?? "Send"
                })
                break
            }
          }
          pages.push({ id: pageId, slug: page.slug, title: page.title, blocks })
        }
        const before = bioProfileOf(current)
        const profile: BioProfile = {
          displayName: input.display_name ?? null,
          headline: input.headline ?? null,
          bio: input.bio ?? null,
          avatar: before.avatar,
          cover: before.cover
        }
        return { profile, pages, theme: input.theme ?? null }
      })
    )
  })

/**
 * An upload under the bio's media prefix, deleted again when `use` does not land. `credit`: the
 * bytes of the file the upload replaces, which the write gives back (the quota is checked on the
 * difference, so a smaller replacement always fits).
 */
const withUpload = <A, E, R>(
  slug: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  fieldNames: ReadonlyArray<string>,
  use: (
    received: {
      readonly file: StagedFile
      readonly fields: Readonly<Record<string, ReadonlyArray<string>>>
    },
    landed: { done: boolean }
  ) => Effect.Effect<A, E, R>,
  credit: (bio: BioRecord) => number = () => 0
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const bio = yield* ownedBio(slug)
    const received = yield* receiveUpload(parts, {
      prefix: `${resourceBlobPrefix(bio)}media/`,
      fieldNames,
      creditBytes: credit(bio)
    })
    const landed = { done: false }
    return yield* use(received, landed).pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed.done ? Effect.void : Effect.ignore(blobs.delete(received.file.blobKey))
      )
    )
  })

/** The block `blockId` of a bio page, if it has one. */
const blockOf = (bio: BioRecord, blockId: string) =>
  bioPagesOf(bio)
    .flatMap((p) => p.blocks)
    .find((b) => b.id === blockId)

const stored = ({ kind: _, ...file }: StagedFile): StoredFile => file

const mustBeImage = (file: StagedFile) =>
  file.kind === "image"
    ? Effect.void
    : Effect.fail(new UnsupportedMedia({ field: "file", problem: "not_an_image" }))

/** A file the upload route takes as it is (the block's own rule decides later). */
const anyFile = () => Effect.void

/**
 * An upload that changes the bio in one write: `check` refuses the received file before anything is
 * written, `change` gets the bio and the file, `credit` is what the change frees of the quota.
 */
const writeWithUpload = (
  slug: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  check: (file: StagedFile) => Effect.Effect<void, UnsupportedMedia>,
  change: (current: BioRecord, file: StagedFile) => Changed,
  credit: (bio: BioRecord) => number
) =>
  withUpload(
    slug,
    parts,
    [],
    ({ file }, landed) =>
      Effect.andThen(
        check(file),
        writeBio(slug, undefined, (current) => change(current, file), landed)
      ),
    credit
  )

/** `POST /resources/{slug}/bio/avatar|cover`: an image, replacing the one before. */
export const setBioMedia = (
  slug: string,
  which: "avatar" | "cover",
  parts: Stream.Stream<UploadPart, UploadBodyError>
) =>
  writeWithUpload(
    slug,
    parts,
    mustBeImage,
    (current, file) =>
      Effect.succeed({
        profile: { ...bioProfileOf(current), [which]: stored(file) },
        pages: bioPagesOf(current)
      }),
    (bio) => bioProfileOf(bio)[which]?.size ?? 0
  )

/** `DELETE /resources/{slug}/bio/avatar|cover`. */
export const removeBioMedia = (slug: string, which: "avatar" | "cover") =>
  writeBio(slug, undefined, (current) =>
    Effect.succeed({ profile: { ...bioProfileOf(current), [which]: null }, pages: bioPagesOf(current) })
  )

/** The one text field `name` of an upload, within `max` characters (absent or empty: null). */
const textField = (fields: Readonly<Record<string, ReadonlyArray<string>>>, name: string, max: number) => {
  const values = (fields[name] ?? []).filter((v) => v !== "")
  if (values.length > 1) return Effect.fail(new FieldSentTwice({ field: name }))
  const value = values[0] ?? null
  return value !== null && [...value].length > max
    ? Effect.fail(new FieldTooLong({ field: name, maxChars: max }))
    : Effect.succeed(value)
}

/** `POST /resources/{slug}/bio/pages/{pageID}/blocks/file`: an image or file block at the page's end. */
export const addBioFileBlock = (
  slug: string,
  pageId: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>
) =>
  Effect.gen(function* () {
    const ids = yield* IdGen
    const blockId = yield* ids.uuidV7
    return yield* withUpload(slug, parts, ["title", "caption"], ({ file, fields }, landed) =>
      Effect.gen(function* () {
        const title = yield* textField(fields, "title", 300)
        const caption = yield* textField(fields, "caption", 2000)
        const block: BioBlock =
          file.kind === "image"
            ? { id: blockId, type: "image", file: stored(file), caption, thumbnail: null }
            : { id: blockId, type: "file", file: stored(file), title, thumbnail: null }
        const next = yield* writeBio(
          slug,
          undefined,
          (current) => {
            const pages = bioPagesOf(current)
            const page = pages.find((p) => p.id === pageId)
            if (page === undefined) return Effect.fail(new ResourceNotFound())
            if (page.blocks.length >= MAX_BIO_BLOCKS)
              return Effect.fail(new BioPageFull({ maxBlocks: MAX_BIO_BLOCKS }))
            return Effect.succeed({
              profile: bioProfileOf(current),
              pages: pages.map((p) => (p.id === pageId ? { ...p, blocks: [...p.blocks, block] } : p))
            })
          },
          landed
        )
        return { bio: next, block }
      })
    )
  })

/** The bio's pages with block `blockId` replaced by `f(block)` (ResourceNotFound when there is none). */
const changeBlock = (
  current: BioRecord,
  blockId: string,
  f: (block: BioBlock) => Effect.Effect<BioBlock, SharingFieldRefusal | UnsupportedMedia>
) =>
  Effect.gen(function* () {
    const pages = bioPagesOf(current)
    const block = blockOf(current, blockId)
    if (block === undefined) return yield* new ResourceNotFound()
    const changed = yield* f(block)
    return {
      profile: bioProfileOf(current),
      pages: pages.map((p) => ({ ...p, blocks: p.blocks.map((b) => (b.id === blockId ? changed : b)) }))
    }
  })

/** `POST /resources/{slug}/bio/blocks/{blockID}/file`: new bytes behind an image or file block. */
export const replaceBioBlockFile = (
  slug: string,
  blockId: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>
) =>
  writeWithUpload(
    slug,
    parts,
    anyFile,
    (current, file) =>
      changeBlock(current, blockId, (block) => {
        if (block.type === "image")
          return file.kind === "image"
            ? Effect.succeed({ ...block, file: stored(file) })
            : Effect.fail(new UnsupportedMedia({ field: "file", problem: "image_block_needs_image" }))
        if (block.type === "file") return Effect.succeed({ ...block, file: stored(file) })
        return Effect.fail(new BioBlockTakesNoFile({ blockType: block.type }))
      }),
    (bio) => {
      const block = blockOf(bio, blockId)
      return block?.type === "image" || block?.type === "file" ? block.file.size : 0
    }
  )

/** `POST /resources/{slug}/bio/blocks/{blockID}/thumbnail`: an image shown beside a link, image or file block. */
export const setBioBlockThumbnail = (
  slug: string,
  blockId: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>
) =>
  writeWithUpload(
    slug,
    parts,
    mustBeImage,
    (current, file) =>
      changeBlock(current, blockId, (block) =>
        block.type === "link" || block.type === "image" || block.type === "file"
          ? Effect.succeed({ ...block, thumbnail: stored(file) })
          : Effect.fail(new BioBlockTakesNoThumbnail({ blockType: block.type }))
      ),
    (bio) => {
      const block = blockOf(bio, blockId)
      return block !== undefined && "thumbnail" in block ? (block.thumbnail?.size ?? 0) : 0
    }
  )

// ---- Visitor form submissions (the owner's side) --------------------------------------------

/** `GET /resources/{slug}/bio/form-submissions`: newest first, with the total. */
export const listBioSubmissions = (slug: string, page: { readonly limit: number; readonly offset: number }) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const bio = yield* ownedBio(slug)
    const submissions = yield* BioSubmissions
    return yield* submissions.list(principal.tenant, bio.id, page)
  })

const EXPORT_PAGE = 500

/**
 * `GET /resources/{slug}/bio/form-submissions/export`: CSV lines, read a page at a time. Columns: when,
 * which form, then every field name of the page's forms (current forms first, in their order, then
 * names only older submissions hold). Every cell is escaped against formula execution.
 */
export const exportBioSubmissions = (slug: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const bio = yield* ownedBio(slug)
    const submissions = yield* BioSubmissions
    const names: Array<string> = []
    for (const page of bioPagesOf(bio))
      for (const block of page.blocks)
        if (block.type === "form")
          for (const f of block.fields) if (!names.includes(f.name)) names.push(f.name)
    // Names that only older submissions hold (a field since removed) still get their column.
    for (let offset = 0; ; offset += EXPORT_PAGE) {
      const { items } = yield* submissions.list(principal.tenant, bio.id, { limit: EXPORT_PAGE, offset })
      for (const s of items)
        for (const name of Object.keys(s.values)) if (!names.includes(name)) names.push(name)
      if (items.length < EXPORT_PAGE) break
    }
    const header = csvLine(["submitted_at", "form", ...names])
    const rows = Stream.paginate(0, (offset: number) =>
      Effect.map(
        submissions.list(principal.tenant, bio.id, { limit: EXPORT_PAGE, offset }),
        ({ items }) =>
          [
            items.map((s) =>
              csvLine([s.createdAt.toISOString(), s.formTitle, ...names.map((n) => s.values[n] ?? "")])
            ),
            items.length < EXPORT_PAGE ? Option.none<number>() : Option.some(offset + EXPORT_PAGE)
          ] as const
      )
    )
    return { filename: `${bio.slug}-form-submissions.csv`, lines: Stream.concat(Stream.make(header), rows) }
  })

/** `DELETE /resources/{slug}/bio/form-submissions/{submissionID}`: gone for good. */
export const deleteBioSubmission = (slug: string, submissionId: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const bio = yield* ownedBio(slug)
    const submissions = yield* BioSubmissions
    const deleted = yield* submissions.delete(principal.tenant, bio.id, submissionId)
    if (!deleted) return yield* new ResourceNotFound()
  })
