// Port: the media work uploads need and the domain cannot do itself: recognising a type from its
// magic numbers, drawing preview images (a thumbnail of an image, a card for anything else), and
// re-encoding an original for `optimize-original`.
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

/** An original re-encoded by `optimizeOriginal`: always a JPEG, its pixels upright. */
export interface OptimizedImage {
  readonly bytes: Uint8Array
  readonly mediaType: "image/jpeg"
  /** Upright pixels (after the orientation was applied). */
  readonly width: number
  readonly height: number
}

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
  /**
   * The original re-encoded as a JPEG for `optimize-original`: a JPEG (`mediaType` image/jpeg) is
   * re-encoded smaller, a HEIC/HEIF (image/heic, image/heif) converted. The pixels come out upright
   * (the EXIF orientation of a JPEG, the rotation and mirror of a HEIF applied); an EXIF
   * orientation kept says 1. The ICC profile stays. Location (the EXIF GPS block, and the maker's notes,
   * which can hold place names) is removed unless `keepLocation`; XMP and IPTC never stay. Whether the
   * result replaces the original is the caller's rule (`worthReplacing`).
   * At most `maxInputBytes` of `image` are read. None when the bytes do not decode as an image of
   * that type, when there are more than `maxInputBytes` of them, or more pixels than the decoder's
   * limit (the caller checks the stored size first to tell the owner which).
   */
  readonly optimizeOriginal: (
    image: Stream.Stream<Uint8Array, StorageError>,
    options: { readonly mediaType: string; readonly keepLocation: boolean; readonly maxInputBytes: number }
  ) => Effect.Effect<Option.Option<OptimizedImage>, StorageError>
  /** A card `size` pixels wide for a resource that is no image. */
  readonly card: (card: PreviewCard, size: number) => Effect.Effect<Uint8Array>
}

export class MediaTools extends Context.Service<MediaTools, MediaToolsService>()(
  "@folio/domain/MediaTools"
) {}
