// GET /blobs/<key>?exp=&sig=[&fn=]: serves a blob behind a locally signed, expiring URL (the
// filesystem and memory blob stores' download links). S3 stores hand out presigned URLs instead.
import { URL } from "node:url"
import { attachmentDisposition, BlobStore, verifyBlobSignature } from "@folio/domain"
import { Clock, Context, Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { FormsErrors } from "../forms/errors.js"
import { NothingHere, RequestRefused, serverFault } from "../shared/index.js"

/** The HMAC secret the blob store signs its local URLs with. */
export class BlobSigningSecret extends Context.Service<BlobSigningSecret, string>()(
  "@folio/adapters-http/BlobSigningSecret"
) {}

const noSuchFile = () => FormsErrors.respond(new NothingHere({ message: "no such file" }))

const download = (secret: string, blobs: BlobStore["Service"]) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const url = new URL(request.url, "http://local")
    let key: string
    try {
      key = url.pathname.slice("/blobs/".length).split("/").map(decodeURIComponent).join("/")
    } catch {
      return yield* noSuchFile()
    }
    const exp = Number(url.searchParams.get("exp") ?? "")
    const sig = url.searchParams.get("sig") ?? ""
    const fn = url.searchParams.get("fn") ?? undefined
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    const check = verifyBlobSignature({ key, expiresAt: exp, filename: fn }, sig, secret, now)
    if (check !== "valid") {
      return yield* FormsErrors.respond(
        new RequestRefused({
          message: check === "expired" ? "download link has expired" : "download link is not valid"
        })
      )
    }
    const object = yield* blobs
      .get(key)
      .pipe(Effect.catchTag("StorageError", () => Effect.succeed(Option.none())))
    if (Option.isNone(object)) return yield* noSuchFile()
    return HttpServerResponse.uint8Array(object.value.bytes, {
      contentType: object.value.contentType,
      headers: {
        "cache-control": `private, max-age=${Math.max(0, exp - now)}`,
        "x-content-type-options": "nosniff",
        // Uploaded content never runs as a page of this origin.
        "content-security-policy": "default-src 'none'; sandbox",
        ...(fn === undefined ? {} : { "content-disposition": attachmentDisposition(fn) })
      }
    })
  }).pipe(Effect.catchDefect(() => FormsErrors.respond(serverFault())))

export const BlobDownloadRoute = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const secret = yield* BlobSigningSecret
    const blobs = yield* BlobStore
    yield* router.add("GET", "/blobs/*", download(secret, blobs))
  })
)
