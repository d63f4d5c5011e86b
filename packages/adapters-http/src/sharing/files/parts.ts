// A multipart body as the upload use cases read it: its parts as they are parsed (the file part as a
// stream), with the reader's limits and its failures in the domain's words.
import {
  type UploadBodyError,
  UploadBodyUnreadable,
  type UploadPart,
  UploadPolicy,
  UploadTooLarge
} from "@folio/domain"
import { Effect, Stream } from "effect"
import { Multipart } from "effect/http"
import { fileContent } from "./file-content.js"

/** Parts an upload body may have (one file and the text fields). */
const MAX_PARTS = 80
/** Bytes of one text field (an artifact's metadata JSON is the longest). */
const MAX_FIELD_BYTES = 256 * 1024

/** The reader's failure as the upload's: a limit is 413, anything else an unreadable body. */
const bodyError =
  (maxBytes: number) =>
  (error: Multipart.MultipartError): UploadBodyError =>
    error.reason._tag === "BodyTooLarge" || error.reason._tag === "FileTooLarge"
      ? new UploadTooLarge({ maxBytes })
      : new UploadBodyUnreadable()

/** The parts of an upload body for this server's size limit (read once, where handlers are built). */
export const UploadParts = Effect.map(Effect.service(UploadPolicy), (policy) => {
  const toBodyError = bodyError(policy.maxBytes)
  return (
    payload: Stream.Stream<Multipart.Part, Multipart.MultipartError>,
    limits: { readonly maxParts?: number } = {}
  ): Stream.Stream<UploadPart, UploadBodyError> =>
    payload.pipe(
      Stream.map(
        (part): UploadPart =>
          Multipart.isFile(part)
            ? {
                _tag: "File",
                name: part.key,
                fileName: part.name,
                content: Stream.mapError(fileContent(part), toBodyError)
              }
            : { _tag: "Field", name: part.key, value: part.value }
      ),
      Stream.mapError(toBodyError),
      Stream.provideContext(
        Multipart.limitsServices({ maxParts: limits.maxParts ?? MAX_PARTS, maxFieldSize: MAX_FIELD_BYTES })
      )
    )
})
