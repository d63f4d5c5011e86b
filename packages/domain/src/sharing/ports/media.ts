// Port: the media work uploads need and the domain cannot do itself: recognising a type from its
// magic numbers, and drawing preview images (a thumbnail of an image, a card for anything else).
import { type Effect, Context, type Option, type Stream } from "effect"
import type { StorageError } from "../../kernel/errors.js"

/** What a preview card of a resource that is no image shows. */
export interface PreviewCard {
  /** The big line: the resource's title or file name. */
  readonly title: string
  /** The small line: its type and size, or its address. */
  readonly subtitle: string
  /** A short word in the badge (`PDF`, `LINK`). */
  readonly badge: string
}

/** A drawn preview: always of this type. */
export const PREVIEW_CONTENT_TYPE = "image/webp"

export interface MediaToolsService {
  /** The media type the first bytes of some content show; undefined when no signature matches. */
  readonly sniff: (head: Uint8Array) => Effect.Effect<string | undefined>
  /**
   * A thumbnail of an image that fits in `size` x `size` pixels (orientation applied, metadata
   * dropped); None when the bytes do not decode as an image (or exceed the decoder's pixel limit).
   */
  readonly thumbnail: (
    image: Stream.Stream<Uint8Array, StorageError>,
    size: number
  ) => Effect.Effect<Option.Option<Uint8Array>, StorageError>
  /** A card `size` pixels wide for a resource that is no image. */
  readonly card: (card: PreviewCard, size: number) => Effect.Effect<Uint8Array>
}

export class MediaTools extends Context.Service<MediaTools, MediaToolsService>()(
  "@folio/domain/MediaTools"
) {}
