// MediaTools over two well-kept libraries: file-type reads magic numbers (the type of an upload
// comes from its bytes, never from the client), and sharp (libvips) draws previews: thumbnails of
// images, with their orientation applied and every metadata block dropped, and SVG cards rendered
// to WebP for everything else) and re-encodes originals for `optimize-original`. sharp's libvips has
// no HEVC decoder, so a HEVC HEIC (what phones take) is decoded by heic-decode (libheif in wasm).
import { createRequire } from "node:module"
import {
  MediaTools,
  type OptimizableKind,
  type OptimizedImage,
  optimizableType,
  type PreviewCard,
  StorageError
} from "@folio/domain"
import { Effect, Layer, Option, Semaphore, Stream } from "effect"
import type { OutputInfo, Sharp } from "sharp"

/**
 * The two libraries, loaded at their first use: sharp (with libvips) and file-type are ~0.15 s of
 * a process's start, and most starts never draw or sniff anything.
 */
let sharpLoaded: Promise<typeof import("sharp")["default"]> | undefined
const sharpLibrary = () => (sharpLoaded ??= import("sharp").then((m) => m.default))
let fileTypeLoaded: Promise<typeof import("file-type")> | undefined
const fileTypeLibrary = () => (fileTypeLoaded ??= import("file-type"))

/** Decoding refuses images of more pixels than this (a decompression bomb is refused, not drawn). */
export const MAX_PREVIEW_INPUT_PIXELS = 100_000_000

const escapeXml = (text: string) =>
  text.replace(
    /[<>&"']/g,
    (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c] ?? c
  )

/** `text` cut to `max` characters, with an ellipsis when cut. */
const cut = (text: string, max: number) => {
  const chars = [...text]
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`
}

/** The title in at most two lines of about 22 characters, broken at spaces where it can be. */
const titleLines = (title: string): ReadonlyArray<string> => {
  const words = title.split(/\s+/).filter((w) => w !== "")
  const lines: Array<string> = []
  let line = ""
  for (const word of words) {
    const next = line === "" ? word : `${line} ${word}`
    if ([...next].length <= 22 || line === "") line = next
    else {
      lines.push(line)
      line = word
    }
  }
  if (line !== "") lines.push(line)
  if (lines.length <= 2) return lines.map((l) => cut(l, 22))
  return [cut(lines[0] ?? "", 22), cut(lines.slice(1).join(" "), 22)]
}

const cardSvg = (card: PreviewCard, size: number) => {
  const lines = titleLines(card.title)
  const text = lines
    .map(
      (line, i) =>
        `<text x="24" y="${170 + i * 34}" font-size="28" font-weight="600" fill="#111827">${escapeXml(line)}</text>`
    )
    .join("")
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 320 320">
  <rect width="320" height="320" rx="24" fill="#f3f4f6"/>
  <rect x="24" y="24" width="${Math.max(64, 18 * [...card.badge].length + 24)}" height="44" rx="10" fill="#2563eb"/>
  <text x="36" y="54" font-size="22" font-weight="700" fill="#ffffff" font-family="sans-serif">${escapeXml(card.badge)}</text>
  <g font-family="sans-serif">${text}</g>
  <text x="24" y="280" font-size="18" fill="#4b5563" font-family="sans-serif">${escapeXml(cut(card.subtitle, 30))}</text>
</svg>`
}

const collect = (image: Stream.Stream<Uint8Array, StorageError>) =>
  Effect.map(
    Stream.runFold(
      image,
      () => [] as Array<Uint8Array>,
      (chunks, chunk) => {
        chunks.push(chunk)
        return chunks
      }
    ),
    (chunks) => Buffer.concat(chunks)
  )

/** All of a stream in one buffer; undefined as soon as it passes `max` bytes (the rest is not read). */
const collectUpTo = (image: Stream.Stream<Uint8Array, StorageError>, max: number) =>
  Effect.suspend(() => {
    const chunks: Array<Uint8Array> = []
    let total = 0
    return Stream.runForEachWhile(image, (chunk) =>
      Effect.sync(() => {
        total += chunk.byteLength
        if (total > max) return false
        chunks.push(chunk)
        return true
      })
    ).pipe(Effect.map(() => (total > max ? undefined : Buffer.concat(chunks))))
  })

// --- EXIF of an optimized original -------------------------------------------------------------
// sharp can keep all EXIF or none; it cannot drop only the GPS block. So the original's EXIF block is
// edited here, in place (every offset, including those maker notes use, stays valid), and written
// into the new JPEG as its APP1 segment.

const EXIF_HEADER = Buffer.from("Exif\0\0", "latin1")
/** Bytes of one value of each TIFF field type. */
const TIFF_TYPE_BYTES: ReadonlyArray<number> = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8, 4]
const TAG_ORIENTATION = 0x0112
const TAG_EXIF_IFD = 0x8769
const TAG_GPS_IFD = 0x8825
const TAG_INTEROP_IFD = 0xa005
const TAG_MAKER_NOTE = 0x927c
const TAG_PIXEL_X = 0xa002
const TAG_PIXEL_Y = 0xa003
const TAG_THUMBNAIL_OFFSET = 0x0201
const TAG_THUMBNAIL_LENGTH = 0x0202

/**
 * The EXIF block (with its `Exif\0\0` header) for an upright re-encoding `width` x `height` of an image
 * whose EXIF is `exif` (with or without that header: sharp reports HEIF's without). Orientation is
 * set to 1 (the pixels are upright now), the pixel dimensions are updated, and the thumbnail (IFD1,
 * still in the old orientation) is dropped. Unless `keepLocation`, the GPS block and the maker notes
 * (opaque, and some cameras write place names there) are zeroed and unlinked. Undefined when the
 * block does not parse: then no EXIF is written at all, so a location never slips through.
 */
const rewriteExif = (
  exif: Uint8Array,
  options: { readonly keepLocation: boolean; readonly width: number; readonly height: number }
): Buffer | undefined => {
  const headed = exif.byteLength >= 6 && EXIF_HEADER.equals(exif.subarray(0, 6))
  const tiff = Buffer.from(exif.subarray(headed ? 6 : 0))
  const order = tiff.toString("latin1", 0, 2)
  if (order !== "II" && order !== "MM") return undefined
  const little = order === "II"
  // Buffer's reads and writes throw past the end: a damaged block lands in the catch below.
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const set16 = (at: number, v: number) => (little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at))
  const set32 = (at: number, v: number) => (little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at))
  const zero = (at: number, length: number) => {
    if (at < 8 || length < 0 || at + length > tiff.length) throw new RangeError("EXIF value out of bounds")
    tiff.fill(0, at, at + length)
  }
  interface Entry {
    readonly at: number
    readonly tag: number
    readonly type: number
    readonly count: number
  }
  const entriesOf = (ifd: number): ReadonlyArray<Entry> => {
    const n = u16(ifd)
    u32(ifd + 2 + 12 * n) // the next-IFD link must be there too
    return Array.from({ length: n }, (_, i) => {
      const at = ifd + 2 + 12 * i
      return { at, tag: u16(at), type: u16(at + 2), count: u32(at + 4) }
    })
  }
  const bytesOf = (e: Entry) => {
    const size = TIFF_TYPE_BYTES[e.type]
    if (!size) throw new RangeError("unknown EXIF type")
    return size * e.count
  }
  const isPointer = (tag: number) => tag === TAG_EXIF_IFD || tag === TAG_GPS_IFD || tag === TAG_INTEROP_IFD
  const seen = new Set<number>()
  /** Zeroes an IFD, everything its entries point at, and the IFDs after it. */
  const wipe = (ifd: number): void => {
    if (ifd === 0) return
    if (seen.has(ifd)) throw new RangeError("EXIF IFD loop")
    seen.add(ifd)
    const entries = entriesOf(ifd)
    let thumbnail = { at: 0, length: 0 }
    for (const e of entries) {
      const size = bytesOf(e)
      if (size > 4) zero(u32(e.at + 8), size)
      if (isPointer(e.tag)) wipe(u32(e.at + 8))
      if (e.tag === TAG_THUMBNAIL_OFFSET) thumbnail = { ...thumbnail, at: u32(e.at + 8) }
      if (e.tag === TAG_THUMBNAIL_LENGTH) thumbnail = { ...thumbnail, length: u32(e.at + 8) }
    }
    if (thumbnail.length > 0) zero(thumbnail.at, thumbnail.length)
    const next = u32(ifd + 2 + 12 * entries.length)
    zero(ifd, 2 + 12 * entries.length + 4)
    wipe(next)
  }
  /** Drops one entry of an IFD, moving the rest (and the next-IFD link) up. */
  const remove = (ifd: number, entry: Entry) => {
    const n = u16(ifd)
    const end = ifd + 2 + 12 * n + 4
    tiff.copyWithin(entry.at, entry.at + 12, end)
    tiff.fill(0, end - 12, end)
    set16(ifd, n - 1)
  }
  const setNumber = (e: Entry, v: number) => {
    if (e.count !== 1) return
    if (e.type === 3) set16(e.at + 8, Math.min(v, 0xffff))
    else if (e.type === 4) set32(e.at + 8, v)
  }
  /** Edits an IFD and the Exif IFD it points at; back to front, so a removal moves no entry still to visit. */
  const edit = (ifd: number): void => {
    if (seen.has(ifd)) throw new RangeError("EXIF IFD loop")
    seen.add(ifd)
    for (const e of [...entriesOf(ifd)].reverse()) {
      if (e.tag === TAG_ORIENTATION) setNumber(e, 1)
      else if (e.tag === TAG_PIXEL_X) setNumber(e, options.width)
      else if (e.tag === TAG_PIXEL_Y) setNumber(e, options.height)
      else if (e.tag === TAG_EXIF_IFD) edit(u32(e.at + 8))
      else if (!options.keepLocation && (e.tag === TAG_GPS_IFD || e.tag === TAG_MAKER_NOTE)) {
        const size = bytesOf(e)
        if (size > 4) zero(u32(e.at + 8), size)
        if (e.tag === TAG_GPS_IFD) wipe(u32(e.at + 8))
        remove(ifd, e)
      }
    }
  }
  try {
    if (u16(2) !== 42) return undefined
    const ifd0 = u32(4)
    edit(ifd0)
    const link = ifd0 + 2 + 12 * u16(ifd0)
    const ifd1 = u32(link)
    set32(link, 0)
    wipe(ifd1)
    return Buffer.concat([EXIF_HEADER, tiff])
  } catch {
    return undefined
  }
}

/** An APP segment: marker, length, payload (undefined when the payload is too long for one). */
const appSegment = (marker: number, payload: Buffer) =>
  payload.length + 2 > 0xffff
    ? undefined
    : Buffer.concat([
        Buffer.from([0xff, marker, (payload.length + 2) >> 8, (payload.length + 2) & 0xff]),
        payload
      ])

/** An ICC profile as JPEG's APP2 segments (`ICC_PROFILE\0`, sequence number, count, chunk). */
const iccSegments = (icc: Buffer): ReadonlyArray<Buffer> => {
  const size = 0xffff - 2 - 14
  const count = Math.ceil(icc.length / size)
  if (count > 255) return []
  return Array.from({ length: count }, (_, i) =>
    Buffer.concat([
      Buffer.from("ICC_PROFILE\0", "latin1"),
      Buffer.from([i + 1, count]),
      icc.subarray(i * size, (i + 1) * size)
    ])
  ).flatMap((payload) => appSegment(0xe2, payload) ?? [])
}

/** `jpeg` with `segments` after its start marker (and its JFIF segment, which comes first). */
const withSegments = (jpeg: Buffer, segments: ReadonlyArray<Buffer>) => {
  if (segments.length === 0) return jpeg
  const at = jpeg[2] === 0xff && jpeg[3] === 0xe0 ? 4 + jpeg.readUInt16BE(4) : 2
  return Buffer.concat([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)])
}

// --- optimize-original ------------------------------------------------------------------------

/** Quality of a re-encoded original (mozjpeg, progressive): visually lossless for photos. */
export const OPTIMIZED_JPEG_QUALITY = 80

type HeicDecode = (input: { readonly buffer: Uint8Array }) => Promise<{
  readonly width: number
  readonly height: number
  readonly data: Uint8ClampedArray
}>
let heicDecoder: HeicDecode | undefined
/** heic-decode ships no types, and its wasm is a few megabytes: loaded on the first HEVC HEIC. */
const heicDecode = (): HeicDecode => {
  heicDecoder ??= createRequire(import.meta.url)("heic-decode") as HeicDecode
  return heicDecoder
}

const optimize = async (input: Buffer, kind: OptimizableKind, keepLocation: boolean) => {
  const options = { limitInputPixels: MAX_PREVIEW_INPUT_PIXELS, failOn: "error" } as const
  const sharp = await sharpLibrary()
  const meta = await sharp(input, options).metadata()
  if (meta.format !== (kind === "jpeg" ? "jpeg" : "heif")) return undefined
  // Reading the header does not check the pixel limit; heic-decode has none of its own.
  if (meta.width * meta.height > MAX_PREVIEW_INPUT_PIXELS) return undefined
  const encode = (pipeline: Sharp) =>
    pipeline
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: OPTIMIZED_JPEG_QUALITY, progressive: true, mozjpeg: true })
      .toBuffer({ resolveWithObject: true })
  let out: { data: Buffer; info: OutputInfo }
  let icc: Buffer | undefined
  try {
    // A JPEG is turned upright by its EXIF orientation. A HEIF's EXIF orientation is only a note:
    // libheif already applied its rotation and mirror boxes, and applying the tag too would turn it twice.
    const source = sharp(input, options)
    out = await encode((kind === "jpeg" ? source.autoOrient() : source).keepIccProfile())
  } catch (cause) {
    if (kind !== "heif") throw cause
    // No HEVC decoder in sharp's libvips: libheif in wasm (rotation and mirror applied) gives RGBA.
    // It runs on this thread, so a large photo holds the event loop for a moment (a queued job).
    const decoded = await heicDecode()({ buffer: input })
    const raw = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength)
    out = await encode(
      sharp(raw, { ...options, raw: { width: decoded.width, height: decoded.height, channels: 4 } })
    )
    // The pixels are in the file's colour space: its profile goes with them.
    icc = meta.icc
  }
  const exif =
    meta.exif && rewriteExif(meta.exif, { keepLocation, width: out.info.width, height: out.info.height })
  const exifSegment = exif && appSegment(0xe1, exif)
  const bytes = withSegments(out.data, [
    ...(exifSegment ? [exifSegment] : []),
    ...(icc ? iccSegments(icc) : [])
  ])
  const optimized: OptimizedImage = {
    bytes: new Uint8Array(bytes),
    mediaType: "image/jpeg",
    width: out.info.width,
    height: out.info.height
  }
  return optimized
}

/**
 * Drawings at once: each holds its source (up to the upload limit) and libvips' working memory, and
 * anyone can ask for a gallery's previews, so a burst of them queues instead of piling up.
 */
export const PREVIEW_DRAWINGS_AT_ONCE = 2

export const SharpMediaToolsLive = Layer.effect(
  MediaTools,
  Effect.map(Semaphore.make(PREVIEW_DRAWINGS_AT_ONCE), (drawing) =>
    MediaTools.of({
      sniff: (head) =>
        Effect.promise(() =>
          fileTypeLibrary()
            .then((library) => library.fileTypeFromBuffer(head))
            .catch(() => undefined)
        ).pipe(Effect.map((found) => found?.mime)),

      thumbnail: (image, size) =>
        drawing.withPermit(
          Effect.flatMap(collect(image), (input) =>
            Effect.tryPromise({
              try: async () =>
                (await sharpLibrary())(input, { limitInputPixels: MAX_PREVIEW_INPUT_PIXELS, failOn: "error" })
                  .rotate()
                  .resize(size, size, { fit: "inside", withoutEnlargement: true })
                  .webp({ quality: 80 })
                  .toBuffer(),
              catch: (cause) => cause
            }).pipe(
              Effect.map((out) => Option.some(new Uint8Array(out))),
              // Bytes that do not decode (or decode past the pixel limit) get the card instead.
              Effect.orElseSucceed(() => Option.none<Uint8Array>())
            )
          )
        ),

      optimizeOriginal: (image, { mediaType, keepLocation, maxInputBytes }) => {
        const kind = optimizableType(mediaType)
        if (kind === undefined) return Effect.succeed(Option.none())
        return drawing.withPermit(
          Effect.flatMap(collectUpTo(image, maxInputBytes), (input) =>
            input === undefined
              ? Effect.succeed(Option.none<OptimizedImage>())
              : Effect.tryPromise({
                  try: () => optimize(input, kind, keepLocation),
                  catch: (cause) => cause
                }).pipe(
                  Effect.map((optimized) => Option.fromNullishOr(optimized)),
                  // Bytes that are not an image of the type (or past the pixel limit) stay as they are.
                  Effect.orElseSucceed(() => Option.none<OptimizedImage>())
                )
          )
        )
      },

      card: (card, size) =>
        drawing.withPermit(
          Effect.tryPromise({
            try: async () =>
              (await sharpLibrary())(Buffer.from(cardSvg(card, size)))
                .webp({ quality: 85 })
                .toBuffer(),
            catch: (cause) => new StorageError({ message: "cannot draw a preview card", cause })
          }).pipe(
            Effect.map((out) => new Uint8Array(out)),
            Effect.orDie
          )
        )
    })
  )
)
