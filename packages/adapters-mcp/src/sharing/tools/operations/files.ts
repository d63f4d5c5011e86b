// sharing_files: a small file uploaded inline (base64, up to INLINE_FILE_MAX_BYTES decoded) through
// the same upload use case as `POST /uploads`, a resource's WebP preview, and for a larger file an
// upload request whose link a person opens to send it (the JSON-RPC body cannot carry it).
import { RequestInvalid, RequestTooLarge } from "@folio/adapters-http/shared"
import {
  CreateUploadRequestInput,
  MaxViews,
  PREVIEW_CONTENT_TYPE,
  SharingFiles,
  SharingUploadRequests,
  type UploadPart,
  UploadFields,
  UploadRequestWithToken,
  uploadRequestWithToken
} from "@folio/domain"
import { Clock, Effect, Schema, Stream } from "effect"
import { sharingTool } from "../../tool.js"
import { need, ResourceWithEtag, withEtag } from "../shared.js"
import { asBody, Id, pick } from "./input.js"

/**
 * Decoded bytes of an inline file. The MCP endpoint takes 1 MiB bodies and base64 adds a third, so
 * this leaves room for the JSON around it; larger files go through an upload request's page.
 */
export const INLINE_FILE_MAX_BYTES = 512 * 1024

const ACTIONS = ["upload", "preview", "request_upload"] as const

// The upload's fields are POST /uploads' form fields; numbers and flags typed as JSON has them.
const {
  max_views: _maxViews,
  archived: _archived,
  pinned: _pinned,
  ...uploadTextFields
} = UploadFields.fields

const FilesInput = Schema.Struct({
  action: Schema.Literals(ACTIONS).annotate({
    description: `upload: a new file or image resource from content_base64 (at most ${INLINE_FILE_MAX_BYTES} bytes decoded) and optional file_name and resource fields; preview: the small WebP preview of resource id (or slug); request_upload: for a larger file, an upload request (title required) whose url a person opens to upload it`
  }),
  content_base64: Schema.optionalKey(
    Schema.String.annotate({
      description: `the file's bytes in standard base64; at most ${INLINE_FILE_MAX_BYTES} bytes decoded`
    })
  ),
  file_name: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(255))),
  id: Schema.optionalKey(Id.annotate({ description: "preview: the resource's id or slug" })),
  ...uploadTextFields,
  max_views: Schema.optionalKey(MaxViews),
  archived: Schema.optionalKey(Schema.Boolean),
  pinned: Schema.optionalKey(Schema.Boolean)
})
type FilesInput = typeof FilesInput.Type

const FilesOutput = Schema.Struct({
  action: Schema.Literals(ACTIONS),
  /** upload: the resource as `POST /uploads` answers it, and its etag (its X-Resource-ETag). */
  resource: Schema.optionalKey(ResourceWithEtag.fields.resource),
  etag: Schema.optionalKey(ResourceWithEtag.fields.etag),
  preview: Schema.optionalKey(Schema.Struct({ content_type: Schema.String, content_base64: Schema.String })),
  /** request_upload: the request as `POST /upload-requests` answers it (its token shown this once). */
  upload_request: Schema.optionalKey(UploadRequestWithToken)
})

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** The inline content's bytes: refused when it is not base64 or is over the inline limit. */
const inlineBytes = (content: string) => {
  // Checked on the text's length first: decoding a body's worth of base64 to refuse it is waste.
  if (Math.floor((content.length * 3) / 4) - 2 > INLINE_FILE_MAX_BYTES) return Effect.fail(tooLarge())
  if (!BASE64.test(content))
    return Effect.fail(
      new RequestInvalid({
        message: "content_base64 is not standard base64",
        issues: [{ path: ["content_base64"], rule: "base64" }]
      })
    )
  const bytes = new Uint8Array(Buffer.from(content, "base64"))
  return bytes.byteLength > INLINE_FILE_MAX_BYTES ? Effect.fail(tooLarge()) : Effect.succeed(bytes)
}

const tooLarge = () =>
  new RequestTooLarge({
    message: `an inline file is at most ${INLINE_FILE_MAX_BYTES} bytes; for a larger one use action request_upload and give its url to the person who has the file`
  })

/** The upload's text fields as the multipart form would carry them (labels one part each). */
const fieldParts = (input: FilesInput): ReadonlyArray<UploadPart> => {
  const parts: Array<UploadPart> = []
  for (const name of Object.keys(UploadFields.fields) as ReadonlyArray<keyof typeof UploadFields.fields>) {
    const value = input[name]
    if (value === undefined) continue
    const values = Array.isArray(value) ? value : [String(value)]
    for (const v of values) parts.push({ _tag: "Field", name, value: v })
  }
  return parts
}

const REQUEST_FIELDS = ["title", "description", "password", "expires_at"] as const

export const filesTool = sharingTool({
  name: "sharing_files",
  title: "Upload files and images",
  description: `Files and images. action=upload creates a file or image resource from content_base64 (standard base64, at most ${INLINE_FILE_MAX_BYTES} bytes decoded; the type is decided from the content and must be on the allowed list; counts against the storage quota) with the same optional fields as POST /uploads (slug, title, description, visibility, password, expires_at, labels, max_views for files, archived, pinned, type image|file to insist on a kind); it answers the resource and its etag. action=preview answers the small WebP preview of resource id (base64). A file over the inline limit cannot travel in a tool call: action=request_upload creates an upload request (title; optional description, password, expires_at) and answers its url: give that link to the person who has the file, then read what arrives with sharing_upload_submissions.`,
  operations: ["files.upload", "files.preview", "uploadRequests.create"],
  operationsOf: (input) =>
    input.action === "upload"
      ? ["files.upload"]
      : input.action === "preview"
        ? ["files.preview"]
        : ["uploadRequests.create"],
  input: FilesInput,
  output: FilesOutput,
  run: (input, { publicOrigin }) =>
    Effect.gen(function* () {
      switch (input.action) {
        case "upload": {
          yield* need(input, "upload", ["content_base64"])
          const bytes = yield* inlineBytes(input.content_base64 ?? "")
          const file: UploadPart = {
            _tag: "File",
            name: "file",
            fileName: input.file_name,
            content: Stream.succeed(bytes)
          }
          const record = yield* (yield* SharingFiles).upload(
            Stream.fromIterable([...fieldParts(input), file])
          )
          return { action: input.action, ...withEtag(record, publicOrigin) }
        }
        case "preview": {
          yield* need(input, "preview", ["id"])
          const bytes = yield* (yield* SharingFiles).preview(input.id ?? "")
          return {
            action: input.action,
            preview: {
              content_type: PREVIEW_CONTENT_TYPE,
              content_base64: Buffer.from(bytes).toString("base64")
            }
          }
        }
        case "request_upload": {
          const body = yield* asBody(CreateUploadRequestInput, input.action)(pick(input, REQUEST_FIELDS))
          const { request, token } = yield* (yield* SharingUploadRequests).create(body)
          const now = new Date(yield* Clock.currentTimeMillis)
          return {
            action: input.action,
            upload_request: uploadRequestWithToken(request, token, publicOrigin, now)
          }
        }
      }
    })
})
