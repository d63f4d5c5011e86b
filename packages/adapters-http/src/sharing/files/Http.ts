// Handlers of the file routes: the multipart body's parts handed to the upload use case as they are
// parsed (the file part as a stream), and previews as cacheable private images.
import { resourceEtag, ResourceView, resourceView, SharingFiles, SharingIdempotency } from "@folio/domain"
import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { UploadParts } from "./parts.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"

export const FilesLive = HttpApiBuilder.group(SharingApi, "files", (handlers) =>
  Effect.gen(function* () {
    const files = yield* SharingFiles
    const origin = yield* PublicOrigin
    const uploadParts = yield* UploadParts
    const idempotency = yield* SharingIdempotency
    return handlers
      .handle("upload", ({ payload, headers }) =>
        sharingRoute(
          "files.upload",
          optionallyIdempotent(
            headers["idempotency-key"],
            Effect.map(files.upload(uploadParts(payload)), (record) =>
              HttpApiSchema.withHeaders({
                body: resourceView(record, origin),
                headers: { "x-resource-etag": resourceEtag(record) }
              })
            ),
            (key) =>
              idempotency.runStreamed(key, "upload", uploadParts(payload), (parts) =>
                Effect.flatMap(files.upload(parts), (record) =>
                  answerAs(ResourceView, 201, resourceView(record, origin), {
                    "x-resource-etag": resourceEtag(record)
                  })
                )
              )
          )
        )
      )
      .handle("preview", ({ params }) =>
        sharingRoute(
          "files.preview",
          Effect.gen(function* () {
            const bytes = yield* files.preview(params.id)
            return HttpServerResponse.uint8Array(bytes, {
              contentType: "image/webp",
              headers: { "cache-control": "private, max-age=300", "x-content-type-options": "nosniff" }
            })
          })
        )
      )
  })
)
