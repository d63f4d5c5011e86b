// Handlers of the file routes: the multipart body's parts handed to the upload use case as they are
// parsed (the file part as a stream), and previews as cacheable private images.
import {
  resourceEtag,
  resourceView,
  SharingFiles,
  type UploadBodyError,
  UploadBodyUnreadable,
  type UploadPart,
  UploadPolicy,
  UploadTooLarge
} from "@folio/domain"
import { Effect, Stream } from "effect"
import { HttpServerResponse, Multipart } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { requireScopes } from "../../shared/index.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"

/** Parts an upload body may have (one file and the text fields). */
const MAX_PARTS = 80
/** Bytes of one text field (a description is the longest, 2,000 characters). */
const MAX_FIELD_BYTES = 16 * 1024

/** The reader's failure as the upload's: a limit is 413, anything else an unreadable body. */
const bodyError =
  (maxBytes: number) =>
  (error: Multipart.MultipartError): UploadBodyError =>
    error.reason._tag === "BodyTooLarge" || error.reason._tag === "FileTooLarge"
      ? new UploadTooLarge({ maxBytes })
      : new UploadBodyUnreadable()

export const FilesLive = HttpApiBuilder.group(SharingApi, "files", (handlers) =>
  Effect.gen(function* () {
    const files = yield* SharingFiles
    const origin = yield* PublicOrigin
    const policy = yield* UploadPolicy
    const toBodyError = bodyError(policy.maxBytes)
    return handlers
      .handle("upload", ({ payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          const parts: Stream.Stream<UploadPart, UploadBodyError> = payload.pipe(
            Stream.map(
              (part): UploadPart =>
                Multipart.isFile(part)
                  ? {
                      _tag: "File",
                      name: part.key,
                      fileName: part.name,
                      content: Stream.mapError(part.content, toBodyError)
                    }
                  : { _tag: "Field", name: part.key, value: part.value }
            ),
            Stream.mapError(toBodyError),
            Stream.provideContext(
              Multipart.limitsServices({ maxParts: MAX_PARTS, maxFieldSize: MAX_FIELD_BYTES })
            )
          )
          const record = yield* files.upload(parts)
          return HttpApiSchema.withHeaders({
            body: resourceView(record, origin),
            headers: { "x-resource-etag": resourceEtag(record) }
          })
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("preview", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const bytes = yield* files.preview(params.id)
          return HttpServerResponse.uint8Array(bytes, {
            contentType: "image/webp",
            headers: { "cache-control": "private, max-age=300", "x-content-type-options": "nosniff" }
          })
        }).pipe(Effect.catch(SharingErrors.fail))
      )
  })
)
