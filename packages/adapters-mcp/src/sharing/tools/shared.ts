import {
  collectionEtag,
  type ResourceListItem,
  type ResourceRecord,
  ResourceView,
  resourceEtag,
  resourceView
} from "@folio/domain"
import { Schema } from "effect"

/** A resource slug as tools take it (the use cases answer not_found for one that names nothing). */
export const Slug = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128)).annotate({
  description: "the resource's slug (from sharing_query or the url's last segment)"
})

export const ExpectedEtag = Schema.String.check(Schema.isMaxLength(200)).annotate({
  description:
    "the etag you last read: the write happens only if nobody changed the resource since (etag_mismatch otherwise); omit to write regardless"
})

/** A resource as reads and writes answer it: the REST view, its etag and, for a collection, its items' etag. */
export const ResourceWithEtag = Schema.Struct({
  resource: ResourceView,
  etag: Schema.String,
  collection_etag: Schema.optionalKey(Schema.String)
})

export const withEtag = (record: ResourceRecord, publicOrigin: string) => ({
  resource: resourceView(record, publicOrigin),
  etag: resourceEtag(record),
  ...(record.type === "collection" ? { collection_etag: collectionEtag(record) } : {})
})

export const listView = (item: ResourceListItem, publicOrigin: string) => resourceView(item, publicOrigin)

export { need } from "../../actions.js"
