import { RefusedField, RefusedFieldWith } from "./fields.js"

/** The item to add names no file or image of the caller's account. */
export class CollectionSourceNotFound extends RefusedField(
  "CollectionSourceNotFound",
  "resource",
  "no file or image of yours has this slug or id"
) {}

/** The item to add is a resource of another type than file or image. */
export class CollectionSourceNotMedia extends RefusedField(
  "CollectionSourceNotMedia",
  "resource",
  "only files and images can be added"
) {}

/** The file or image to add has no bytes stored any more. */
export class CollectionSourceBytesGone extends RefusedField(
  "CollectionSourceBytesGone",
  "resource",
  "the file's bytes are gone"
) {}

/** The collection already holds as many items as it may. */
export class CollectionFull extends RefusedFieldWith(
  "CollectionFull",
  "resource",
  (e: { readonly maxItems: number }) => `a collection holds at most ${e.maxItems} items`
) {}

/** A reorder names one item more than once. */
export class CollectionItemRepeated extends RefusedField(
  "CollectionItemRepeated",
  "items",
  "names an item more than once"
) {}

/** A reorder leaves out an item of the collection, or names one it does not hold. */
export class CollectionOrderIncomplete extends RefusedField(
  "CollectionOrderIncomplete",
  "items",
  "must name every item of the collection, and only those"
) {}

export const COLLECTION_REFUSALS = [
  CollectionSourceNotFound,
  CollectionSourceNotMedia,
  CollectionSourceBytesGone,
  CollectionFull,
  CollectionItemRepeated,
  CollectionOrderIncomplete
] as const
