// Handlers of the bio page routes: scope, the SharingBio use case, the bio view with its ETag.
import {
  type BioRecord,
  type BioSubmissionRecord,
  bioBlockView,
  publicResourceUrl,
  resourceEtag,
  resourceView,
  SharingBio
} from "@folio/domain"
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { requireScopes } from "../../shared/index.js"
import { csvDownload } from "../../streaming.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"
import { resourceIfMatchOf } from "../etag-headers.js"
import { UploadParts } from "../files/parts.js"
import { SUBMISSION_PAGE } from "./Api.js"

const submissionView = (s: BioSubmissionRecord) => ({
  id: s.id,
  block_id: s.blockId,
  form_title: s.formTitle,
  values: { ...s.values },
  created_at: s.createdAt.toISOString()
})

export const BioLive = HttpApiBuilder.group(SharingApi, "bio", (handlers) =>
  Effect.gen(function* () {
    const bio = yield* SharingBio
    const origin = yield* PublicOrigin
    const uploadParts = yield* UploadParts
    const view = (r: BioRecord) => {
      const v = resourceView(r, origin)
      if (v.type !== "bio") throw new Error("a bio page's view is a bio page")
      return v
    }
    const withEtag = (r: BioRecord) =>
      HttpApiSchema.withHeaders({ body: view(r), headers: { "x-resource-etag": resourceEtag(r) } })
    return handlers
      .handle("replace", ({ params, headers, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withEtag(yield* bio.replace(params.slug, payload, resourceIfMatchOf(headers)))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("setAvatar", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withEtag(yield* bio.setMedia(params.slug, "avatar", uploadParts(payload)))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("removeAvatar", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("delete")
          return withEtag(yield* bio.removeMedia(params.slug, "avatar"))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("setCover", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withEtag(yield* bio.setMedia(params.slug, "cover", uploadParts(payload)))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("removeCover", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("delete")
          return withEtag(yield* bio.removeMedia(params.slug, "cover"))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("addFileBlock", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          const added = yield* bio.addFileBlock(params.slug, params.pageId, uploadParts(payload))
          return HttpApiSchema.withHeaders({
            body: {
              block: bioBlockView(publicResourceUrl(origin, added.bio.slug), added.block),
              bio: view(added.bio)
            },
            headers: { "x-resource-etag": resourceEtag(added.bio) }
          })
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("replaceBlockFile", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withEtag(yield* bio.replaceBlockFile(params.slug, params.blockId, uploadParts(payload)))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("setBlockThumbnail", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withEtag(yield* bio.setBlockThumbnail(params.slug, params.blockId, uploadParts(payload)))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("listSubmissions", ({ params, query }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const limit = query.limit ?? SUBMISSION_PAGE.default
          const offset = query.offset ?? 0
          const page = yield* bio.listSubmissions(params.slug, { limit, offset })
          return { items: page.items.map(submissionView), total: page.total, limit, offset }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("exportSubmissions", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const csv = yield* bio.exportSubmissions(params.slug)
          return yield* csvDownload(
            csv.lines,
            csv.filename,
            yield* HttpServerRequest.HttpServerRequest,
            "bio submissions export"
          )
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("deleteSubmission", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("delete")
          yield* bio.deleteSubmission(params.slug, params.submissionId)
        }).pipe(Effect.catch(SharingErrors.fail))
      )
  })
)
