// The collection routes (sharing-api.md, Collections): add a copy of a file or image, arrange the
// items in one call, remove one. Each answers X-Collection-ETag; writes take X-Collection-If-Match.
import {
  AddCollectionItemInput,
  ArrangeCollectionInput,
  CollectionItemView,
  CollectionView,
  Uuid
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"

const Slug = { slug: Schema.String }

/** The preconditions a collection write may send: the X- header (preferred) or the standard one. */
const CollectionIfMatch = {
  "x-collection-if-match": Schema.optional(Schema.String),
  "if-match": Schema.optional(Schema.String)
}

const CollectionEtags = { "x-collection-etag": Schema.String, "x-resource-etag": Schema.String }

export const CollectionItemAdded = Schema.Struct({
  item: CollectionItemView,
  collection: CollectionView
}).annotate({ identifier: "CollectionItemAdded" })

const Errors = sharingErrorsOf(
  "insufficient_scope",
  "forbidden",
  "not_found",
  "etag_mismatch",
  "service_unavailable"
)

export class CollectionsGroup extends HttpApiGroup.make("collections")
  .add(
    HttpApiEndpoint.post("addItem", "/resources/:slug/collection/items", {
      params: Slug,
      headers: CollectionIfMatch,
      payload: AddCollectionItemInput,
      success: HttpApiSchema.WithHeaders(CollectionItemAdded, CollectionEtags).pipe(
        HttpApiSchema.status(201)
      ),
      error: [...Errors, ...sharingErrorsOf("quota_exceeded")]
    }).annotate(
      OpenApi.Summary,
      "Add a copy of one of your files or images at the end (its bytes count against the quota); send X-Collection-If-Match (scope write)"
    ),
    HttpApiEndpoint.patch("arrange", "/resources/:slug/collection", {
      params: Slug,
      headers: CollectionIfMatch,
      payload: ArrangeCollectionInput,
      success: HttpApiSchema.WithHeaders(CollectionView, CollectionEtags),
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Reorder the items (name every item once, in the new order) and change display names and captions in one call; send X-Collection-If-Match (scope write)"
    ),
    HttpApiEndpoint.delete("removeItem", "/resources/:slug/collection/items/:itemId", {
      params: { ...Slug, itemId: Uuid },
      headers: CollectionIfMatch,
      success: HttpApiSchema.WithHeaders(HttpApiSchema.NoContent, CollectionEtags),
      error: Errors
    }).annotate(OpenApi.Summary, "Remove one item and its copy's bytes (scope delete)")
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Collections: copies of files and images, arranged and captioned") {}
