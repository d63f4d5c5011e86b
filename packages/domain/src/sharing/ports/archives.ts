// Port: reading an artifact's ZIP archive. The adapter receives the archive as a stream, holds it
// on local disk (never in memory), and answers its file entries, refused against the artifact
// limits as their sizes are declared and again while each entry inflates (a zip bomb is stopped
// while inflating, never after). Paths are answered as written; the domain checks them.
import { type Effect, Context, type Scope, type Stream } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { ArtifactLimits } from "../artifacts/limits.js"
import type {
  ArtifactArchiveInvalid,
  ArtifactPathInvalid,
  ArtifactTooLarge,
  ArtifactTooManyFiles
} from "../errors.js"

export interface ArchiveEntry {
  /** The entry's path as written in the archive (folders are not entries). */
  readonly path: string
  /** Uncompressed bytes, as declared (reading refuses one byte more). */
  readonly size: number
  /** The entry's bytes, inflated as they are read; may be read more than once. */
  readonly read: () => Stream.Stream<Uint8Array, ArtifactArchiveInvalid | StorageError>
}

export type ArchiveRefusal =
  | ArtifactArchiveInvalid
  | ArtifactPathInvalid
  | ArtifactTooLarge
  | ArtifactTooManyFiles

export interface ArtifactArchivesService {
  /**
   * The file entries of the ZIP `archive` (at most `limits.zipBytes`), in archive order. The
   * archive is held until the scope closes; read the entries within it.
   */
  readonly open: <E>(
    archive: Stream.Stream<Uint8Array, E>,
    limits: ArtifactLimits
  ) => Effect.Effect<ReadonlyArray<ArchiveEntry>, E | ArchiveRefusal | StorageError, Scope.Scope>
}

export class ArtifactArchives extends Context.Service<ArtifactArchives, ArtifactArchivesService>()(
  "@folio/domain/ArtifactArchives"
) {}
