// `POST /resources/{slug}/file/optimize-original`: which stored originals the job works on, and
// when its result replaces them. A large JPEG is re-encoded smaller; a HEIC/HEIF (which most browsers
// cannot show) becomes a JPEG. The replacement is permanent, so it must be worth it.

/** What the job does to an original: re-encode a JPEG, or convert a HEIF to JPEG. */
export type OptimizableKind = "jpeg" | "heif"

/**
 * The kind of work an original of `mediaType` gets; undefined when there is none. AVIF is HEIF too,
 * but browsers show it and it is already smaller than a JPEG of the same picture, so it is left alone.
 */
export const optimizableType = (mediaType: string): OptimizableKind | undefined => {
  switch (mediaType.toLowerCase()) {
    case "image/jpeg":
      return "jpeg"
    case "image/heic":
    case "image/heif":
      return "heif"
    default:
      return undefined
  }
}

/** A re-encoded JPEG replaces its original only when it saves at least this share of the bytes. */
export const MIN_JPEG_SAVING = 0.05

/**
 * Whether the optimized bytes should replace the original. A JPEG must save at least
 * `MIN_JPEG_SAVING` (a smaller saving is not worth a generation of loss); a HEIF conversion always
 * replaces, even when larger, since the point is that the file opens everywhere.
 */
export const worthReplacing = (
  originalBytes: number,
  optimizedBytes: number,
  kind: OptimizableKind
): boolean => {
  if (optimizedBytes <= 0) return false
  if (kind === "heif") return true
  return optimizedBytes <= originalBytes * (1 - MIN_JPEG_SAVING)
}
