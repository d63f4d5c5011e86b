// Handlers of the artifact routes: scope, the SharingArtifacts use case, the view with its ETag.
import {
  ArtifactsFeature,
  ArtifactView,
  type ResourceRecord,
  resourceEtag,
  resourceView,
  SharingArtifacts,
  SharingIdempotency
} from "@folio/domain"
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"
import { UploadParts } from "../files/parts.js"

/** A site body's parts: a file per part (500 at most), the metadata, and one to spare. */
const SITE_PARTS = { maxParts: 502 }

export const ArtifactsLive = HttpApiBuilder.group(SharingApi, "artifacts", (handlers) =>
  Effect.gen(function* () {
    const artifacts = yield* SharingArtifacts
    const origin = yield* PublicOrigin
    const feature = yield* ArtifactsFeature
    const uploadParts = yield* UploadParts
    const idempotency = yield* SharingIdempotency
    const artifactView = (r: ResourceRecord) => {
      const v = resourceView(r, origin, feature.host)
      if (v.type !== "artifact") throw new Error("an artifact's view is an artifact")
      return v
    }
    const view = (r: ResourceRecord) =>
      HttpApiSchema.withHeaders({ body: artifactView(r), headers: { "x-resource-etag": resourceEtag(r) } })
    return handlers
      .handle("create", ({ payload, headers }) =>
        sharingRoute(
          "artifacts.create",
          optionallyIdempotent(
            headers["idempotency-key"],
            Effect.map(artifacts.create(uploadParts(payload, SITE_PARTS)), view),
            (key) =>
              idempotency.runStreamed(key, "artifact", uploadParts(payload, SITE_PARTS), (parts) =>
                Effect.flatMap(artifacts.create(parts), (r) =>
                  answerAs(ArtifactView, 201, artifactView(r), { "x-resource-etag": resourceEtag(r) })
                )
              )
          )
        )
      )
      .handle("deploy", ({ params, payload }) =>
        sharingRoute(
          "artifacts.deploy",
          Effect.map(artifacts.deploy(params.slug, uploadParts(payload, SITE_PARTS)), view)
        )
      )
      .handle("files", ({ params }) =>
        sharingRoute(
          "artifacts.files",
          Effect.gen(function* () {
            const { deployment, files } = yield* artifacts.files(params.slug)
            return {
              deployment_id: deployment.id,
              deployment_number: deployment.number,
              entry_path: deployment.entryPath,
              items: files.map((f) => ({
                path: f.path,
                size: f.size,
                sha256: f.sha256,
                editable: f.editable
              }))
            }
          })
        )
      )
      .handle("source", ({ params, query }) =>
        sharingRoute("artifacts.source", artifacts.source(params.slug, query.path))
      )
  })
)
