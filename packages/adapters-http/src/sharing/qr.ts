// The QR code of a resource's public URL, as PNG (the default) or SVG, `size` pixels square. The
// `qrcode` library encodes the URL (byte mode, error correction M); the SVG is its own vector output.
// The PNG is drawn here from the library's module matrix at a whole number of pixels per module,
// centred in the asked size with at least the standard four-module quiet zone, and encoded by
// `pngjs`: the library's own PNG scales modules by a fraction (uneven modules, and an image one pixel
// short of the asked size for many sizes).
import { Effect, Schema } from "effect"

/** qrcode and pngjs (~40 ms to load), loaded at a process's first QR code. */
let loaded: Promise<readonly [typeof import("qrcode"), typeof import("pngjs")["PNG"]]> | undefined
const libraries = Effect.promise(() => {
  loaded ??= Promise.all([import("qrcode").then((m) => m.default), import("pngjs").then((m) => m.PNG)])
  return loaded
})
type QRCodeLibrary = typeof import("qrcode")
type PNGLibrary = typeof import("pngjs")["PNG"]

export const QR_SIZE = { min: 128, max: 2048, default: 512 } as const

export type QrFormat = "png" | "svg"

/** The `format` query parameter of `GET /resources/{slug}/qr`. */
export const QrFormatParam = Schema.Literals(["png", "svg"])

/** The `size` query parameter of `GET /resources/{slug}/qr`: whole pixels, 128..2048. */
export const QrSizeParam = Schema.NumberFromString.check(
  Schema.isInt(),
  Schema.isBetween({ minimum: QR_SIZE.min, maximum: QR_SIZE.max })
)

/** The route's query, both parameters optional (`png`, 512 when omitted). */
export const QrQuery = { format: Schema.optional(QrFormatParam), size: Schema.optional(QrSizeParam) }

export interface QrImage {
  readonly contentType: "image/png" | "image/svg+xml"
  readonly body: Uint8Array
}

const QUIET_ZONE = 4
const ERROR_CORRECTION = "M"

const pngOf = (QRCode: QRCodeLibrary, PNG: PNGLibrary, text: string, size: number): Uint8Array => {
  const modules = QRCode.create(text, { errorCorrectionLevel: ERROR_CORRECTION }).modules
  const n = modules.size
  // Whole pixels per module when the symbol and its quiet zone fit (every URL of ours does); a
  // symbol too large for the size falls back to sampling, as the library would.
  const scale = Math.max(1, Math.floor(size / (n + 2 * QUIET_ZONE)))
  const fits = scale * (n + 2 * QUIET_ZONE) <= size
  const origin = fits ? Math.floor((size - n * scale) / 2) : 0
  const dark = (x: number, y: number): boolean => {
    const col = fits
      ? Math.floor((x - origin) / scale)
      : Math.floor((x * (n + 2 * QUIET_ZONE)) / size) - QUIET_ZONE
    const row = fits
      ? Math.floor((y - origin) / scale)
      : Math.floor((y * (n + 2 * QUIET_ZONE)) / size) - QUIET_ZONE
    return col >= 0 && row >= 0 && col < n && row < n && modules.get(row, col) !== 0
  }
  const png = new PNG({ width: size, height: size, colorType: 0, inputColorType: 0, inputHasAlpha: false })
  const data = Buffer.alloc(size * size, 0xff)
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (dark(x, y)) data[y * size + x] = 0
  png.data = data
  const bytes = PNG.sync.write(png, { colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType: 2 })
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

const svgOf = (QRCode: QRCodeLibrary, text: string, size: number): Effect.Effect<Uint8Array> =>
  Effect.promise(() =>
    QRCode.toString(text, {
      type: "svg",
      errorCorrectionLevel: ERROR_CORRECTION,
      margin: QUIET_ZONE,
      width: size
    })
  ).pipe(Effect.map((svg) => new TextEncoder().encode(svg)))

/**
 * The QR code of `url`. The URL is the resource's own public address (short), so it always fits a
 * QR symbol; a text past the largest symbol's capacity is a defect.
 */
export const qrCode = (
  url: string,
  options: { readonly format?: QrFormat | undefined; readonly size?: number | undefined } = {}
): Effect.Effect<QrImage> => {
  const size = Math.min(QR_SIZE.max, Math.max(QR_SIZE.min, Math.round(options.size ?? QR_SIZE.default)))
  return Effect.flatMap(
    libraries,
    ([QRCode, PNG]): Effect.Effect<QrImage> =>
      options.format === "svg"
        ? svgOf(QRCode, url, size).pipe(
            Effect.map((body) => ({ contentType: "image/svg+xml" as const, body }))
          )
        : Effect.sync(() => ({ contentType: "image/png" as const, body: pngOf(QRCode, PNG, url, size) }))
  )
}
