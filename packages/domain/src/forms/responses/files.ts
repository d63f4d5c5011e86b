// Respondent uploads for file_upload blocks: the type is decided from the content (a family is
// sniffed from the leading bytes; the client's claim only picks a member within that family), the
// size and count limits come from the block in the pinned version, and the bytes go to the blob
// store before the file row commits. Clients download through a route that answers with a
// short-lived signed URL.
import { Clock, Effect, Option } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { type ResponseFileRecord, ResponseRepository } from "../ports/responses.js"
import { sniffImage } from "../assets.js"
import {
  EmptyUpload,
  FileNotFound,
  FileTooLarge,
  FileTypeNotAccepted,
  NotAnUploadBlock,
  ResponseNotEditable,
  ResponseNotFound,
  TooManyUploads
} from "../errors.js"
import { fileUploadBytes } from "../limits.js"
import { loadForm } from "../use-cases.js"
import { loadOwnResponse, loadPublishedForm, pinnedDefinition } from "./respondent.js"

/** Seconds a signed download URL stays valid. */
export const FILE_URL_TTL_SECONDS = 300

/** Uploads a block takes beyond its maxFiles, so a respondent can replace files. */
export const MAX_REPLACEMENTS = 10

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, offset = 0) =>
  bytes.length >= offset + prefix.length && prefix.every((b, i) => bytes[offset + i] === b)
const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0))

/** Types that may be claimed for content of each sniffed family. */
const FAMILIES: Readonly<Record<string, (claimed: string) => boolean>> = {
  // Office Open XML, OpenDocument and EPUB files are ZIP containers.
  zip: (t) =>
    t === "application/zip" ||
    t.startsWith("application/vnd.openxmlformats-officedocument.") ||
    t.startsWith("application/vnd.oasis.opendocument.") ||
    t === "application/epub+zip",
  // Types a browser would run (HTML, scripts, SVG) are never kept: such content is stored as text/plain.
  text: (t) =>
    (t.startsWith("text/") && !/^text\/(html|javascript|ecmascript|xml)$/.test(t)) ||
    t === "application/json" ||
    t === "application/x-ndjson"
}

const isUtf8Text = (bytes: Uint8Array) => {
  const sample = bytes.subarray(0, 64 * 1024)
  try {
    // Streaming decode: a multi-byte sequence cut at the sample's end is held back, not an error.
    const text = new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true })
    for (let k = 0; k < text.length; k++) {
      const code = text.charCodeAt(k)
      // Control characters other than tab, line feed, vertical tab, form feed, carriage return and escape mark binary content.
      if (code < 0x20 && (code < 0x09 || code > 0x0d) && code !== 0x1b) return false
    }
    return true
  } catch {
    return false
  }
}

/**
 * The content type of an upload, from its bytes: a specific type for recognised binary formats; for
 * ZIP containers and text the client's claim is kept when it names a member of that family.
 */
export const sniffFileType = (bytes: Uint8Array, claimed: string): string => {
  const image = sniffImage(bytes)
  if (image !== undefined) return image.mime
  const claim = claimed.split(";")[0]?.trim().toLowerCase() ?? ""
  if (startsWith(bytes, ascii("%PDF-"))) return "application/pdf"
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]))
    return FAMILIES.zip?.(claim) ? claim : "application/zip"
  if (startsWith(bytes, [0x1f, 0x8b])) return "application/gzip"
  if (startsWith(bytes, ascii("ID3")) || startsWith(bytes, [0xff, 0xfb])) return "audio/mpeg"
  if (startsWith(bytes, ascii("ftyp"), 4))
    return startsWith(bytes, ascii("qt  "), 8) ? "video/quicktime" : "video/mp4"
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WAVE"), 8)) return "audio/wav"
  if (startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])) return "video/webm"
  if (startsWith(bytes, ascii("OggS"))) return "audio/ogg"
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return "image/tiff"
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) return "application/x-ole-storage"
  if (isUtf8Text(bytes)) return FAMILIES.text?.(claim) ? claim : "text/plain"
  return "application/octet-stream"
}

/** Whether a block's acceptedMimeTypes (exact types or `type/*`) admit a sniffed type; none = any. */
export const acceptsType = (accepted: ReadonlyArray<string> | undefined, type: string): boolean =>
  accepted === undefined ||
  accepted.length === 0 ||
  accepted.some((entry) => {
    const a = entry.trim().toLowerCase()
    return a === type || a === "*/*" || (a.endsWith("/*") && type.startsWith(a.slice(0, -1)))
  })

/** A display file name: path parts, control characters and quotes removed, at most 255 characters. */
export const cleanFilename = (name: string): string => {
  const base = name.split(/[\\/]/).pop() ?? ""
  const cleaned = Array.from(base)
    .filter((c) => {
      const code = c.charCodeAt(0)
      return code >= 0x20 && code !== 0x7f && c !== '"'
    })
    .join("")
    .trim()
    .slice(0, 255)
  return cleaned === "" || cleaned === "." || cleaned === ".." ? "upload" : cleaned
}

/**
 * UploadedFile.downloadUrl: the authenticated download route of a respondent file (REST
 * `GET /forms/{id}/files/{fileId}`, scope files:read), absolute under the deployment's origin.
 */
export const fileDownloadRoute =
  (publicOrigin: string) =>
  (file: { readonly formId: string; readonly id: string }): string =>
    `${publicOrigin}/forms/api/v1/forms/${file.formId}/files/${file.id}`

export const respondentFileKey = (workspaceId: string, formId: string, responseId: string, fileId: string) =>
  `workspaces/${workspaceId}/forms/${formId}/responses/${responseId}/${fileId}`

export interface RespondentUpload {
  readonly blockId: string
  readonly filename: string
  readonly claimedType: string
  readonly bytes: Uint8Array
}

/** Stores one respondent upload for a file_upload block of the response's pinned version. */
export const uploadRespondentFile = (
  slug: string,
  responseId: string,
  token: string,
  upload: RespondentUpload
) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    const response = yield* loadOwnResponse(published, responseId, token)
    if (response.status === "completed" && published.settings.submission.allowResponseEditing !== true) {
      return yield* new ResponseNotEditable()
    }
    const definition = yield* pinnedDefinition(published, response)
    const block = definition.blocks.find((b) => b.id === upload.blockId)
    if (block === undefined) return yield* new NotAnUploadBlock({ rule: "unknownBlock" })
    if (block.type !== "file_upload") return yield* new NotAnUploadBlock({ rule: "notFileUpload" })
    const maxBytes = fileUploadBytes(block.options.maxSizeMb)
    if (upload.bytes.byteLength > maxBytes) {
      return yield* new FileTooLarge({ maxSizeMb: block.options.maxSizeMb })
    }
    if (upload.bytes.byteLength === 0) {
      return yield* new EmptyUpload()
    }
    const contentType = sniffFileType(upload.bytes, upload.claimedType)
    if (!acceptsType(block.options.acceptedMimeTypes, contentType)) {
      return yield* new FileTypeNotAccepted()
    }
    const responses = yield* ResponseRepository
    const cap = block.options.maxFiles + MAX_REPLACEMENTS
    const tooMany = new TooManyUploads()
    // A cheap early refusal before any bytes are stored; the cap itself holds in insertFile.
    const existing = yield* responses.listFiles(published.form.workspaceId, published.form.id, [response.id])
    if (existing.filter((f) => f.blockId === block.id).length >= cap) return yield* tooMany
    const ids = yield* IdGen
    const fileId = yield* ids.uuidV7
    const key = respondentFileKey(published.form.workspaceId, published.form.id, response.id, fileId)
    const removeBlob = Effect.ignore(Effect.flatMap(Effect.service(BlobStore), (blobs) => blobs.delete(key)))
    yield* Effect.flatMap(Effect.service(BlobStore), (blobs) =>
      blobs.put(key, { bytes: upload.bytes, contentType })
    )
    const file: ResponseFileRecord = {
      id: fileId,
      workspaceId: published.form.workspaceId,
      formId: published.form.id,
      responseId: response.id,
      blockId: block.id,
      key,
      filename: cleanFilename(upload.filename),
      contentType,
      size: upload.bytes.byteLength,
      createdAt: new Date(yield* Clock.currentTimeMillis)
    }
    // Room for replacing files, bounded so one response cannot fill the store; counted and inserted
    // atomically, since parallel uploads all pass the early check. A refused or failed row takes its
    // blob with it, so no orphan outlives the upload.
    const stored = yield* responses.insertFile(file, cap).pipe(
      Effect.tapError(() => removeBlob),
      // The response was withdrawn (or swept) between its read and this insert: gone, not a failure.
      Effect.catchTag("StorageError", (e) =>
        Effect.flatMap(responses.get(response.workspaceId, response.formId, response.id), (found) =>
          Option.isNone(found)
            ? Effect.fail<ResponseNotFound | typeof e>(new ResponseNotFound())
            : Effect.fail(e)
        )
      )
    )
    if (!stored) {
      yield* removeBlob
      return yield* tooMany
    }
    return file
  })

/**
 * The respondent's own response as they left it, with the files uploaded to it: what continuing it
 * needs (the form page's JavaScript-off post keeps earlier uploads by key and names them again).
 */
export const loadOwnResponseWithFiles = (slug: string, responseId: string, token: string) =>
  Effect.gen(function* () {
    const published = yield* loadPublishedForm(slug)
    const response = yield* loadOwnResponse(published, responseId, token)
    const files = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.listFiles(published.form.workspaceId, published.form.id, [response.id])
    )
    return { response, files }
  })

/** Client side: a signed URL for one respondent file of a readable form (scope files:read). */
export const fileDownloadUrl = (formId: string, fileId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    const file = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.getFile(form.workspaceId, form.id, fileId)
    )
    if (Option.isNone(file)) return yield* new FileNotFound()
    return yield* Effect.flatMap(Effect.service(BlobStore), (blobs) =>
      blobs.signedUrl(file.value.key, {
        expiresInSeconds: FILE_URL_TTL_SECONDS,
        filename: file.value.filename
      })
    )
  })
