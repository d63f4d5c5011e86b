// Port: which blob keys the database names (response files, form images, shared files and their
// variants, collection copies, bio media, Notion assets, artifact objects), for checking a bucket
// against the database and sweeping orphans, a batch at a time: never every key in memory.
import { type Effect, Context, type Stream } from "effect"
import type { StorageError } from "../errors.js"

export interface BlobReferencesService {
  /**
   * Of `keys` (a batch, a few hundred at most), the ones some row names. Errs on the side of
   * "referenced": a key it cannot place (an unknown shape) counts as referenced, so nothing it does
   * not understand is ever deleted.
   */
  readonly referenced: (keys: ReadonlyArray<string>) => Effect.Effect<ReadonlySet<string>, StorageError>
  /**
   * Every key some row names, read a page of rows at a time. A key named by several rows (an
   * artifact object shared by deployments, an image of a copied form) may come more than once.
   */
  readonly all: Stream.Stream<string, StorageError>
}

export class BlobReferences extends Context.Service<BlobReferences, BlobReferencesService>()(
  "@folio/domain/BlobReferences"
) {}
