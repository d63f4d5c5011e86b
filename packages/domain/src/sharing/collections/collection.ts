// A collection's items: copies of the owner's files and images, in display order, each with its own
// display name and caption. The item list has its own ETag (X-Collection-ETag), made from a revision
// that only item changes bump, so a title change does not stale a client's reordering.
import { sha256Hex } from "../../kernel/digest.js"
import { type CollectionItem, ifMatchNames, type ResourceRecordOf } from "../resources/resource.js"

/** Items a collection may hold. */
export const MAX_COLLECTION_ITEMS = 500

export type CollectionRecord = ResourceRecordOf<"collection">

/** The items of a collection (none on one made before items existed). */
export const itemsOf = (c: CollectionRecord): ReadonlyArray<CollectionItem> => c.data.items ?? []

/** The revision of a collection's items (0 before the first item change). */
export const itemsRevisionOf = (c: CollectionRecord): number => c.data.itemsRevision ?? 0

/** X-Collection-ETag: opaque, changes with every item change, differs between collections. */
export const collectionEtag = (c: CollectionRecord): string =>
  sha256Hex(`collection:${c.id}:${itemsRevisionOf(c)}`).slice(0, 32)

/** Whether an X-Collection-If-Match (or If-Match) value names the current item list (`*`: any). */
export const collectionEtagMatches = (ifMatch: string, c: CollectionRecord): boolean =>
  ifMatchNames(ifMatch, collectionEtag(c))

/** The collection with `items` as its item list: revision bumped, stored bytes recounted. */
export const withItems = (
  c: CollectionRecord,
  items: ReadonlyArray<CollectionItem>,
  at: Date
): CollectionRecord => ({
  ...c,
  data: { ...c.data, items, itemsRevision: itemsRevisionOf(c) + 1 },
  storedBytes: items.reduce((n, i) => n + i.file.size, 0),
  rowVersion: c.rowVersion + 1,
  updatedAt: at
})
