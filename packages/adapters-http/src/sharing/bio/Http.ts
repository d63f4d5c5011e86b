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
import { csvDownload } from "../../streaming.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
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
        sharingRoute(
          "bio.replace",
          Effect.map(bio.replace(params.slug, payload, resourceIfMatchOf(headers)), withEtag)
        )
      )
      .handle("setAvatar", ({ params, payload }) =>
        sharingRoute(
          "bio.setAvatar",
          Effect.map(bio.setMedia(params.slug, "avatar", uploadParts(payload)), withEtag)
        )
      )
      .handle("removeAvatar", ({ params }) =>
        sharingRoute("bio.removeAvatar", Effect.map(bio.removeMedia(params.slug, "avatar"), withEtag))
      )
      .handle("setCover", ({ params, payload }) =>
        sharingRoute(
          "bio.setCover",
          Effect.map(bio.setMedia(params.slug, "cover", uploadParts(payload)), withEtag)
        )
      )
      .handle("removeCover", ({ params }) =>
        sharingRoute("bio.removeCover", Effect.map(bio.removeMedia(params.slug, "cover"), withEtag))
      )
      .handle("addFileBlock", ({ params, payload }) =>
        sharingRoute(
          "bio.addFileBlock",
          Effect.gen(function* () {
            const added = yield* bio.addFileBlock(params.slug, params.pageId, uploadParts(payload))
            return HttpApiSchema.withHeaders({
              body: {
                block: bioBlockView(publicResourceUrl(origin, added.bio.slug), added.block),
                bio: view(added.bio)
              },
              headers: { "x-resource-etag": resourceEtag(added.bio) }
            })
          })
        )
      )
      .handle("replaceBlockFile", ({ params, payload }) =>
        sharingRoute(
          "bio.replaceBlockFile",
          Effect.map(bio.replaceBlockFile(params.slug, params.blockId, uploadParts(payload)), withEtag)
        )
      )
      .handle("setBlockThumbnail", ({ params, payload }) =>
        sharingRoute(
          "bio.setBlockThumbnail",
          Effect.map(bio.setBlockThumbnail(params.slug, params.blockId, uploadParts(payload)), withEtag)
        )
      )
      .handle("listSubmissions", ({ params, query }) =>
        sharingRoute(
          "bio.listSubmissions",
          Effect.gen(function* () {
            const limit = query.limit ?? SUBMISSION_PAGE.default
            const offset = query.offset ?? 0
            const page = yield* bio.listSubmissions(params.slug, { limit, offset })
            return { items: page.items.map(submissionView), total: page.total, limit, offset }
          })
        )
      )
      .handle("exportSubmissions", ({ params }) =>
        sharingRoute(
          "bio.exportSubmissions",
          Effect.gen(function* () {
            const csv = yield* bio.exportSubmissions(params.slug)
            return yield* csvDownload(
              csv.lines,
              csv.filename,
              yield* HttpServerRequest.HttpServerRequest,
              "bio submissions export"
            )
          })
        )
      )
      .handle("deleteSubmission", ({ params }) =>
        sharingRoute(
          "bio.deleteSubmission",
          Effect.asVoid(bio.deleteSubmission(params.slug, params.submissionId))
        )
      )
  })
)
