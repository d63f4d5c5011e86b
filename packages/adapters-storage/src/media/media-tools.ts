// MediaTools over two well-kept libraries: file-type reads magic numbers (the type of an upload
// comes from its bytes, never from the client), and sharp (libvips) draws previews: thumbnails of
// images, with their orientation applied and every metadata block dropped, and SVG cards rendered
// to WebP for everything else.
import { MediaTools, type PreviewCard, StorageError } from "@folio/domain"
import { Effect, Layer, Option, Semaphore, Stream } from "effect"
import { fileTypeFromBuffer } from "file-type"
import sharp from "sharp"

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
        Effect.promise(() => fileTypeFromBuffer(head).catch(() => undefined)).pipe(
          Effect.map((found) => found?.mime)
        ),

      thumbnail: (image, size) =>
        drawing.withPermit(
          Effect.flatMap(collect(image), (input) =>
            Effect.tryPromise({
              try: () =>
                sharp(input, { limitInputPixels: MAX_PREVIEW_INPUT_PIXELS, failOn: "error" })
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

      card: (card, size) =>
        drawing.withPermit(
          Effect.tryPromise({
            try: () =>
              sharp(Buffer.from(cardSvg(card, size)))
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
