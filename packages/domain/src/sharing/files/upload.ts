// `POST /uploads`: a file or image resource from a multipart body, streamed into the blob store as
// it arrives (never whole in memory). The type is decided from the content against the allowed list
// before a byte is stored past the sniffed head; the size limit and the account's quota stop the
// write as they are reached; the resource row and the quota count are one transaction; and a failure
// at any step deletes what was stored, so nothing is left half-written.
import { Clock, Context, Effect, Exit, Schema, Stream } from "effect"
import { Principal } from "../../identity/principal.js"
import { issuesOf, STRICT_ALL } from "../../kernel/issues.js"
import { BlobStore, BlobTooLarge } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import {
  FieldSentTwice,
  FilePartMissing,
  FilePartNotSingle,
  InvalidField,
  StorageQuotaExceeded,
  UnsupportedMedia,
  type SharingFieldRefusal,
  type UploadBodyUnreadable,
  UploadedFileEmpty,
  UploadFieldsTooMany,
  UploadFieldUnknown,
  UploadStartsAtRefused,
  UploadTooLarge,
  ViewLimitOnImage
} from "../errors.js"
import { MediaTools } from "../ports/media.js"
import { hashPassword } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import {
  newResourceRecord,
  type ResourceRecord,
  resourceBlobPrefix,
  type StoredFile
} from "../resources/resource.js"
import { describedBy } from "../resources/rules.js"
import { insertResource } from "../resources/use-cases.js"
import { allowedMediaType, fileNameOf, type MediaKind, mediaKindOf, SNIFF_BYTES } from "./media-types.js"
import { UPLOAD_FIELD_NAMES, UploadFields } from "./upload-fields.js"

export const DEFAULT_MAX_UPLOAD_BYTES = 50 * 1024 * 1024
export const DEFAULT_STORAGE_QUOTA_BYTES = 1024 * 1024 * 1024

/** The upload size limit and each account's storage quota (configuration sets them). */
export const UploadPolicy = Context.Reference<{ readonly maxBytes: number; readonly quotaBytes: number }>(
  "@folio/domain/UploadPolicy",
  { defaultValue: () => ({ maxBytes: DEFAULT_MAX_UPLOAD_BYTES, quotaBytes: DEFAULT_STORAGE_QUOTA_BYTES }) }
)

/** How reading an upload body can fail (the adapter says which of these its reader's failures are). */
export type UploadBodyError = UploadTooLarge | UploadBodyUnreadable

/** One part of an upload body, as the HTTP adapter reads it. */
export type UploadPart =
  | { readonly _tag: "Field"; readonly name: string; readonly value: string }
  | {
      readonly _tag: "File"
      readonly name: string
      readonly fileName: string | undefined
      readonly content: Stream.Stream<Uint8Array, UploadBodyError>
    }

/** Text fields an upload may carry (a body of more is not a form anyone filled in). */
const MAX_FIELDS = 64

const FIELD_NAME = /^[a-z_]{1,40}$/

const concatBytes = (chunks: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.byteLength
  }
  return out
}

/**
 * `content` with its type decided from its first SNIFF_BYTES bytes before any of them flows on:
 * `decide` fails the stream for a type that is not allowed. What it decided is read from `sniffed`
 * once the stream has run. The content passes as the arrays of chunks it arrives in, so a store can
 * write each array at once (an upload's chunks one by one, each through an inner stream, cost as
 * much as the rest of its path: decision 0029).
 */
const sniffing = (
  content: Stream.Stream<Uint8Array, UploadBodyError>,
  decide: (head: Uint8Array) => Effect.Effect<string, UnsupportedMedia | UploadedFileEmpty>
) => {
  let head: Array<Uint8Array> = []
  let headBytes = 0
  const sniffed: { type?: string } = {}
  const release = (all: Uint8Array) =>
    Effect.map(decide(all), (type): Array<Uint8Array> => {
      sniffed.type = type
      head = []
      return [all]
    })
  const stream = content.pipe(
    // An array in, an array out, and an empty one while the head is gathering (which
    // `mapArrayEffect` may not give): the state is the head above, so the accumulator holds none.
    Stream.mapAccumArrayEffect(
      () => undefined,
      (
        _,
        chunks
      ): Effect.Effect<
        readonly [undefined, ReadonlyArray<Uint8Array>],
        UnsupportedMedia | UploadedFileEmpty
      > => {
        if (sniffed.type !== undefined) return Effect.succeed([undefined, chunks])
        let taken = 0
        while (taken < chunks.length && headBytes < SNIFF_BYTES) {
          const chunk = chunks[taken++] as Uint8Array
          head.push(chunk)
          headBytes += chunk.byteLength
        }
        if (headBytes < SNIFF_BYTES) return Effect.succeed([undefined, []])
        return Effect.map(release(concatBytes(head)), (released) => [
          undefined,
          taken < chunks.length ? released.concat(chunks.slice(taken)) : released
        ])
      }
    ),
    Stream.concat(
      Stream.suspend(() =>
        sniffed.type !== undefined
          ? Stream.empty
          : Stream.flattenIterable(Stream.fromEffect(release(concatBytes(head))))
      )
    )
  )
  return { stream, sniffed }
}

/** The upload's file, stored: where, what and how big, and whether it is an image. */
export interface StagedFile extends StoredFile {
  readonly kind: MediaKind
}

/** What a multipart upload held: its one file, stored, and its text fields as sent. */
export interface ReceivedUpload {
  readonly file: StagedFile
  readonly fields: Readonly<Record<string, ReadonlyArray<string>>>
}

/**
 * One uploaded file into the blob store at `key`, its type sniffed from its first bytes before any
 * is stored (refused when not allowed), stopped past `writeLimit` (the upload limit, or the room
 * left in the quota when that is less). Nothing stays at `key` when it fails.
 */
export const storeUploadedFile = (
  key: string,
  fileName: string | undefined,
  content: Stream.Stream<Uint8Array, UploadBodyError>,
  writeLimit: number,
  field = "file"
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const media = yield* MediaTools
    const policy = yield* UploadPolicy
    const checked = sniffing(content, (head) =>
      head.byteLength === 0
        ? Effect.fail(new UploadedFileEmpty({ field }))
        : Effect.flatMap(media.sniff(head), (sniffed) => {
            const type = allowedMediaType(head, sniffed)
            return type === undefined
              ? Effect.fail(new UnsupportedMedia({ field, problem: "type_not_allowed" }))
              : Effect.succeed(type)
          })
    )
    const { size } = yield* blobs
      .putStream(key, checked.stream, { contentType: "application/octet-stream", maxBytes: writeLimit })
      .pipe(
        Effect.catchIf(
          (e): e is BlobTooLarge => e instanceof BlobTooLarge,
          (e) =>
            Effect.fail(
              e.maxBytes < policy.maxBytes
                ? new StorageQuotaExceeded()
                : new UploadTooLarge({ maxBytes: policy.maxBytes })
            )
        )
      )
    const contentType = checked.sniffed.type ?? "application/octet-stream"
    const staged: StagedFile = {
      blobKey: key,
      fileName: fileNameOf(fileName),
      contentType,
      size,
      kind: mediaKindOf(contentType)
    }
    return staged
  })

/**
 * Reads `parts`: one file part named `file`, stored under `prefix` as it arrives (its type sniffed
 * first), and the text fields in any order, each of `fieldNames` (others are refused, named). The
 * write stops past `policy.maxBytes` (UploadTooLarge) or past the account's room left in its quota
 * (StorageQuotaExceeded). When it fails, nothing it stored stays; once it succeeds, the caller owns
 * the stored file (and deletes it if its own write does not land).
 */
export const receiveUpload = (
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  options: {
    readonly prefix: string
    readonly fieldNames: ReadonlyArray<string>
    /** Bytes of a file this upload replaces: the write gives them back, so they count as room. */
    readonly creditBytes?: number | undefined
  }
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const blobs = yield* BlobStore
    const _media = yield* MediaTools
    const ids = yield* IdGen
    const policy = yield* UploadPolicy
    const used = yield* repo.storageUsed(principal.tenant)
    const room = policy.quotaBytes - used + (options.creditBytes ?? 0)
    if (room <= 0) return yield* new StorageQuotaExceeded()
    const writeLimit = Math.min(policy.maxBytes, room)

    const fields: Record<string, Array<string>> = {}
    let fieldCount = 0
    let staged: StagedFile | undefined
    let writing: string | undefined

    const stage = (fileName: string | undefined, content: Stream.Stream<Uint8Array, UploadBodyError>) =>
      Effect.gen(function* () {
        const key = `${options.prefix}${yield* ids.uuidV7}`
        writing = key
        staged = yield* storeUploadedFile(key, fileName, content, writeLimit)
      })

    const read = Effect.gen(function* () {
      yield* Stream.runForEach(parts, (part) => {
        if (part._tag === "File") {
          // Typed as every failure of the callback: its refusals are distinct classes, not one type.
          if (part.name !== "file" || staged !== undefined)
            return Effect.fail<SharingFieldRefusal | Effect.Error<ReturnType<typeof stage>>>(
              new FilePartNotSingle()
            )
          return stage(part.fileName, part.content)
        }
        if (++fieldCount > MAX_FIELDS) return Effect.fail(new UploadFieldsTooMany())
        if (part.name === "starts_at" && !options.fieldNames.includes("starts_at"))
          return Effect.fail(new UploadStartsAtRefused())
        if (!options.fieldNames.includes(part.name))
          return Effect.fail(
            new UploadFieldUnknown({ field: FIELD_NAME.test(part.name) ? part.name : "body" })
          )
        const values = fields[part.name] ?? []
        values.push(part.value)
        fields[part.name] = values
        return Effect.void
      })
      const file = staged
      if (file === undefined) return yield* new FilePartMissing()
      const received: ReceivedUpload = { file, fields }
      return received
    })
    return yield* read.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || writing === undefined ? Effect.void : Effect.ignore(blobs.delete(writing))
      )
    )
  })

/** The fields as sent, decoded; the first thing wrong names its field. */
const decodeFields = (raw: Readonly<Record<string, ReadonlyArray<string>>>) =>
  Effect.gen(function* () {
    const input: Record<string, unknown> = {}
    for (const [name, values] of Object.entries(raw)) {
      // An empty form input is a field not filled in.
      const sent = values.filter((v) => v !== "")
      if (sent.length === 0) continue
      if (name === "labels") {
        input.labels = sent.flatMap((v) => v.split(",").map((l) => l.trim())).filter((l) => l !== "")
        continue
      }
      if (sent.length > 1) return yield* new FieldSentTwice({ field: name })
      input[name] = sent[0]
    }
    return yield* Schema.decodeUnknownEffect(UploadFields)(input, STRICT_ALL).pipe(
      Effect.mapError((error) => {
        const first = issuesOf(error)[0]
        const field = first === undefined || first.path.length === 0 ? "body" : String(first.path[0])
        return new InvalidField({ field, reason: first?.expected ?? first?.rule ?? "invalid" })
      })
    )
  })

/**
 * A new file or image resource from `parts`: the text fields in any order around one file part
 * named `file`. Fails with UploadTooLarge past the size limit, StorageQuotaExceeded past the
 * account's quota, UnsupportedMedia for a type not allowed (or not the kind asked for), a refused
 * field, and the body's own read failures; in every case nothing stays stored.
 */
export const uploadFile = (parts: Stream.Stream<UploadPart, UploadBodyError>) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const blobs = yield* BlobStore
    const ids = yield* IdGen
    const policy = yield* UploadPolicy
    const id = yield* ids.uuidV7
    const prefix = resourceBlobPrefix({ tenantId: principal.tenant, id })
    const run = Effect.gen(function* () {
      const { file, fields } = yield* receiveUpload(parts, { prefix, fieldNames: UPLOAD_FIELD_NAMES })
      const input = yield* decodeFields(fields)
      if (input.type !== undefined && input.type !== file.kind)
        return yield* new UnsupportedMedia({
          field: "type",
          problem: input.type === "image" ? "not_an_image" : "is_an_image"
        })
      if (file.kind === "image" && input.max_views !== undefined) return yield* new ViewLimitOnImage()
      const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at)
      const passwordHash = yield* hashPassword(input.password)
      const at = new Date(yield* Clock.currentTimeMillis)
      const { kind, ...stored } = file
      const recordAt = (slug: string): ResourceRecord =>
        newResourceRecord(
          {
            id,
            tenantId: principal.tenant,
            slug,
            ...describedBy(input),
            passwordHash,
            expiresAt,
            maxViews: input.max_views ?? null,
            archived: input.archived === "true",
            pinned: input.pinned === "true",
            storedBytes: stored.size,
            at
          },
          { type: kind, data: stored }
        )
      // The insert and the mark that it landed are one uninterruptible step: an interruption that
      // arrives as the transaction commits must not delete the bytes of a live resource.
      return yield* Effect.uninterruptible(
        Effect.tap(insertResource(recordAt, input.slug, { quotaBytes: policy.quotaBytes }), () =>
          Effect.sync(() => {
            landed = true
          })
        )
      )
    })
    let landed = false
    // Whatever ends the upload short (a refusal, a lost connection, an interruption) leaves nothing.
    return yield* run.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed ? Effect.void : Effect.ignore(blobs.deletePrefix(prefix))
      )
    )
  })
