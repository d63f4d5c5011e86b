// SharingCollections: the collection item routes as one service over their ports.
import { Context, type Effect, Layer } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { addCollectionItem, arrangeCollection, removeCollectionItem } from "../collections/use-cases.js"
import { ResourceRepository } from "../ports/resources.js"

const collections = {
  addItem: addCollectionItem,
  arrange: arrangeCollection,
  removeItem: removeCollectionItem
}

export const makeSharingCollections = bindPortsFromContext(collections, ResourceRepository, BlobStore, IdGen)

export class SharingCollections extends Context.Service<
  SharingCollections,
  Effect.Success<typeof makeSharingCollections>
>()("@folio/domain/SharingCollections") {}

export const SharingCollectionsLive = Layer.effect(SharingCollections, makeSharingCollections)
