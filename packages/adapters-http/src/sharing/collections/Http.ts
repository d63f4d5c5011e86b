// Handlers of the collection routes: scope, the SharingCollections use case, the view with both ETags.
import {
  type CollectionRecord,
  collectionEtag,
  collectionItemView,
  publicResourceUrl,
  resourceEtag,
  resourceView,
  SharingCollections
} from "@folio/domain"
import { Effect } from "effect"
import { HttpApiBuilder, HttpApiSchema } from "effect/http-api"
import { PublicOrigin } from "../../public-origin.js"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"

/** X-Collection-If-Match, else the standard If-Match. */
const ifMatchOf = (headers: {
  readonly "x-collection-if-match"?: string | undefined
  readonly "if-match"?: string | undefined
}) => headers["x-collection-if-match"] ?? headers["if-match"]

const etags = (c: CollectionRecord) => ({
  "x-collection-etag": collectionEtag(c),
  "x-resource-etag": resourceEtag(c)
})

export const CollectionsLive = HttpApiBuilder.group(SharingApi, "collections", (handlers) =>
  Effect.gen(function* () {
    const collections = yield* SharingCollections
    const origin = yield* PublicOrigin
    const view = (c: CollectionRecord) => {
      const v = resourceView(c, origin)
      if (v.type !== "collection") throw new Error("a collection's view is a collection")
      return v
    }
    return handlers
      .handle("addItem", ({ params, headers, payload }) =>
        sharingRoute(
          "collections.addItem",
          Effect.gen(function* () {
            const { collection, item } = yield* collections.addItem(params.slug, payload, ifMatchOf(headers))
            return HttpApiSchema.withHeaders({
              body: {
                item: collectionItemView(item, publicResourceUrl(origin, collection.slug)),
                collection: view(collection)
              },
              headers: etags(collection)
            })
          })
        )
      )
      .handle("arrange", ({ params, headers, payload }) =>
        sharingRoute(
          "collections.arrange",
          Effect.gen(function* () {
            const collection = yield* collections.arrange(params.slug, payload, ifMatchOf(headers))
            return HttpApiSchema.withHeaders({ body: view(collection), headers: etags(collection) })
          })
        )
      )
      .handle("removeItem", ({ params, headers }) =>
        sharingRoute(
          "collections.removeItem",
          Effect.gen(function* () {
            const collection = yield* collections.removeItem(params.slug, params.itemId, ifMatchOf(headers))
            return HttpApiSchema.withHeaders({ body: undefined, headers: etags(collection) })
          })
        )
      )
  })
)
