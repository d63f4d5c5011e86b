// The collection routes' bodies and views (sharing-api.md, Collections), in snake_case.
import { Schema } from "effect"
import type { CollectionItem } from "../resources/resource.js"
import { ResourceDescription, ResourceTitle } from "../resources/rules.js"

const DisplayName = Schema.NullOr(ResourceTitle)
const Caption = Schema.NullOr(ResourceDescription)

/** `POST /resources/{slug}/collection/items`: which of the caller's files or images to copy in. */
export const AddCollectionItemInput = Schema.Struct({
  /** The slug or id of one of the caller's `file` or `image` resources. */
  resource: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128)),
  /** Shown instead of the file name (null or omitted: the file name). */
  display_name: Schema.optionalKey(DisplayName),
  caption: Schema.optionalKey(Caption)
}).annotate({ identifier: "AddCollectionItem" })
export type AddCollectionItemInput = typeof AddCollectionItemInput.Type

/**
 * `PATCH /resources/{slug}/collection`: the new order, naming every item once; each entry may
 * change its display name and caption (null clears, omitted keeps).
 */
export const ArrangeCollectionInput = Schema.Struct({
  items: Schema.Array(
    Schema.Struct({
      id: Schema.String.check(Schema.isMaxLength(64)),
      display_name: Schema.optionalKey(DisplayName),
      caption: Schema.optionalKey(Caption)
    })
  ).check(Schema.isMaxLength(500))
}).annotate({ identifier: "ArrangeCollection" })
export type ArrangeCollectionInput = typeof ArrangeCollectionInput.Type

export const CollectionItemView = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["file", "image"]),
  file_name: Schema.String,
  content_type: Schema.String,
  size: Schema.Int,
  display_name: Schema.NullOr(Schema.String),
  caption: Schema.NullOr(Schema.String),
  /** The file or image resource it was copied from (it may be gone since: the copy stays). */
  source_resource_id: Schema.String,
  added_at: Schema.String,
  /** The item's public bytes (the collection's password and window apply). */
  content_url: Schema.String,
  download_url: Schema.String
}).annotate({ identifier: "CollectionItem" })
export type CollectionItemView = typeof CollectionItemView.Type

/** An item as the API shows it; `collectionUrl` is the collection's public URL. */
export const collectionItemView = (item: CollectionItem, collectionUrl: string): CollectionItemView => ({
  id: item.id,
  kind: item.kind,
  file_name: item.file.fileName,
  content_type: item.file.contentType,
  size: item.file.size,
  display_name: item.displayName,
  caption: item.caption,
  source_resource_id: item.sourceResourceId,
  added_at: item.addedAt,
  content_url: `${collectionUrl}/items/${item.id}/content`,
  download_url: `${collectionUrl}/items/${item.id}/download`
})
