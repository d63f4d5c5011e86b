// The sharp adapter's `optimizeOriginal`: a large JPEG re-encoded smaller, EXIF orientation applied,
// location removed unless kept (camera EXIF stays), HEIF converted (AV1 by sharp, HEVC by libheif in
// wasm, its irot applied), and bytes that are no image of the type, or too many, left alone.
import { readFile } from "node:fs/promises"
import { SharpMediaToolsLive } from "@folio/adapters-integrations"
import { MediaTools, type OptimizedImage, StorageError, worthReplacing } from "@folio/domain"
import { Effect, Option, Result, Stream } from "effect"
import sharp from "sharp"
import { describe, expect, it } from "vitest"

const MB = 1024 * 1024

const optimize = (
  image: Stream.Stream<Uint8Array, StorageError> | Uint8Array,
  options: { mediaType: string; keepLocation?: boolean; maxInputBytes?: number }
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const tools = yield* MediaTools
      return yield* tools.optimizeOriginal(image instanceof Uint8Array ? Stream.make(image) : image, {
        mediaType: options.mediaType,
        keepLocation: options.keepLocation ?? false,
        maxInputBytes: options.maxInputBytes ?? 50 * MB
      })
    }).pipe(Effect.provide(SharpMediaToolsLive), Effect.result)
  )

const optimized = async (...args: Parameters<typeof optimize>): Promise<OptimizedImage> => {
  const result = await optimize(...args)
  if (Result.isFailure(result) || Option.isNone(result.success)) throw new Error("not optimized")
  return result.success.value
}

/** Four quadrants: red, green / blue, white. */
const QUADRANTS = { tl: [220, 30, 30], tr: [30, 200, 30], bl: [30, 30, 220], br: [240, 240, 240] }
const quadrants = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3)
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const top = y < height / 2
      const colour = x < width / 2 ? (top ? QUADRANTS.tl : QUADRANTS.bl) : top ? QUADRANTS.tr : QUADRANTS.br
      raw.set(colour, (y * width + x) * 3)
    }
  return sharp(raw, { raw: { width, height, channels: 3 } })
}

/** Photo-like pixels: smooth gradients with deterministic grain. */
const noisy = (width: number, height: number) => {
  const raw = Buffer.alloc(width * height * 3)
  let seed = 42
  for (let i = 0; i < raw.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    const pixel = Math.floor(i / 3)
    const x = pixel % width
    const y = Math.floor(pixel / width)
    const base = [x / width, y / height, (x + y) / (width + height)][i % 3] ?? 0
    raw[i] = Math.max(0, Math.min(255, Math.round(base * 200 + 20 + ((seed >> 16) % 24) - 12)))
  }
  return sharp(raw, { raw: { width, height, channels: 3 } })
}

const GPS = {
  GPSLatitudeRef: "N",
  GPSLatitude: "48/1 51/1 24/1",
  GPSLongitudeRef: "E",
  GPSLongitude: "2/1 21/1 0/1"
}
const CAMERA = { Make: "FolioTest", Model: "Fixture" }

/** 64x48 quadrants, shown as 48x64 by EXIF orientation 6, with camera and GPS EXIF. */
const orientedJpeg = () =>
  quadrants(64, 48)
    .jpeg({ quality: 95 })
    .withMetadata({ orientation: 6 })
    .withExif({ IFD0: CAMERA, IFD3: GPS })
    .toBuffer()

/** The latitude 48/1 51/1 24/1 as little-endian rationals: where it is, the location is. */
const LATITUDE = Buffer.alloc(24)
for (const [i, v] of [48, 1, 51, 1, 24, 1].entries()) LATITUDE.writeUInt32LE(v, i * 4)
const hasLatitude = (bytes: Uint8Array) => Buffer.from(bytes).includes(LATITUDE)

/** IFD0 of an EXIF block (with or without `Exif\0\0`): tag -> first value, strings read as text. */
const ifd0Of = (exif: Buffer | undefined) => {
  const tags = new Map<number, number | string>()
  if (exif === undefined) return tags
  const tiff = exif.subarray(exif.subarray(0, 4).toString("latin1") === "Exif" ? 6 : 0)
  const le = tiff.toString("latin1", 0, 2) === "II"
  const u16 = (at: number) => (le ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at))
  const u32 = (at: number) => (le ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at))
  const ifd = u32(4)
  for (let i = 0; i < u16(ifd); i++) {
    const at = ifd + 2 + 12 * i
    const type = u16(at + 2)
    const count = u32(at + 4)
    if (type === 2) {
      const from = count > 4 ? u32(at + 8) : at + 8
      tags.set(u16(at), tiff.toString("latin1", from, from + count - 1))
    } else tags.set(u16(at), type === 3 ? u16(at + 8) : u32(at + 8))
  }
  return tags
}
const ORIENTATION = 0x0112
const GPS_IFD = 0x8825
const MAKE = 0x010f

/** The colours near the four corners of a decoded image. */
const cornersOf = async (bytes: Uint8Array) => {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true })
  const at = (x: number, y: number) => [
    ...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)
  ]
  return {
    tl: at(3, 3),
    tr: at(info.width - 4, 3),
    bl: at(3, info.height - 4),
    br: at(info.width - 4, info.height - 4)
  }
}
const expectColours = (
  actual: Record<"tl" | "tr" | "bl" | "br", Array<number>>,
  expected: Record<"tl" | "tr" | "bl" | "br", Array<number>>
) => {
  for (const corner of ["tl", "tr", "bl", "br"] as const)
    actual[corner]?.forEach((v, i) => {
      expect(Math.abs(v - (expected[corner][i] ?? 0)), `${corner}[${i}]`).toBeLessThan(24)
    })
}

const HEVC_HEIC = () =>
  readFile(new URL("../fixtures/hevc-irot-exif-gps.heic", import.meta.url)).then((b) => new Uint8Array(b))

describe("optimize-original: JPEG", () => {
  it("re-encodes a large quality-100 JPEG smaller, same size in pixels", async () => {
    const original = await noisy(1200, 900).jpeg({ quality: 100 }).toBuffer()
    const out = await optimized(original, { mediaType: "image/jpeg" })
    expect(out.mediaType).toBe("image/jpeg")
    expect([out.width, out.height]).toEqual([1200, 900])
    expect(out.bytes.byteLength).toBeLessThan(original.length / 2)
    expect(worthReplacing(original.length, out.bytes.byteLength, "jpeg")).toBe(true)
    const meta = await sharp(out.bytes).metadata()
    expect([meta.format, meta.width, meta.height, meta.isProgressive]).toEqual(["jpeg", 1200, 900, true])
  })

  it("applies EXIF orientation 6: the pixels turn, the tag says upright", async () => {
    const original = await orientedJpeg()
    expect((await sharp(original).metadata()).orientation).toBe(6)
    const out = await optimized(original, { mediaType: "image/jpeg" })
    expect([out.width, out.height]).toEqual([48, 64])
    const meta = await sharp(out.bytes).metadata()
    expect([meta.width, meta.height, meta.orientation ?? 1]).toEqual([48, 64, 1])
    expect(ifd0Of(meta.exif).get(ORIENTATION) ?? 1).toBe(1)
    // Turned a quarter clockwise: the bottom-left (blue) is now top-left.
    expectColours(await cornersOf(out.bytes), {
      tl: QUADRANTS.bl,
      tr: QUADRANTS.tl,
      bl: QUADRANTS.br,
      br: QUADRANTS.tr
    })
  })

  it("removes the location and keeps the camera EXIF unless the owner keeps the location", async () => {
    const original = await orientedJpeg()
    const before = ifd0Of((await sharp(original).metadata()).exif)
    expect(before.has(GPS_IFD)).toBe(true)
    expect(hasLatitude(original)).toBe(true)

    const stripped = await optimized(original, { mediaType: "image/jpeg", keepLocation: false })
    const strippedTags = ifd0Of((await sharp(stripped.bytes).metadata()).exif)
    expect(strippedTags.has(GPS_IFD)).toBe(false)
    expect(hasLatitude(stripped.bytes)).toBe(false)
    expect(strippedTags.get(MAKE)).toBe("FolioTest")

    const kept = await optimized(original, { mediaType: "image/jpeg", keepLocation: true })
    const keptTags = ifd0Of((await sharp(kept.bytes).metadata()).exif)
    expect(keptTags.has(GPS_IFD)).toBe(true)
    expect(hasLatitude(kept.bytes)).toBe(true)
    expect(keptTags.get(ORIENTATION)).toBe(1)
    expect(keptTags.get(MAKE)).toBe("FolioTest")
  })

  it("drops the EXIF thumbnail (IFD1), which still shows the old orientation", async () => {
    const marker = Buffer.from("ThumbnailIfdMarker")
    const original = await quadrants(64, 48)
      .jpeg()
      .withExif({ IFD0: CAMERA, IFD1: { ImageDescription: marker.toString() } })
      .toBuffer()
    expect(original.includes(marker)).toBe(true)
    const out = await optimized(original, { mediaType: "image/jpeg", keepLocation: true })
    expect(Buffer.from(out.bytes).includes(marker)).toBe(false)
    expect(ifd0Of((await sharp(out.bytes).metadata()).exif).get(MAKE)).toBe("FolioTest")
  })

  it("writes no EXIF at all when the block does not parse, so no location slips through", async () => {
    const original = await orientedJpeg()
    // Point IFD0's GPS entry past the end of the block.
    const tiff = original.indexOf(Buffer.from("Exif\0\0", "latin1")) + 6
    const ifd = tiff + original.readUInt32LE(tiff + 4)
    const entries = original.readUInt16LE(ifd)
    for (let i = 0; i < entries; i++)
      if (original.readUInt16LE(ifd + 2 + 12 * i) === GPS_IFD)
        original.writeUInt32LE(0xfffff0, ifd + 2 + 12 * i + 8)
    const out = await optimized(original, { mediaType: "image/jpeg" })
    expect([out.width, out.height]).toEqual([48, 64])
    expect((await sharp(out.bytes).metadata()).exif).toBeUndefined()
    expect(hasLatitude(out.bytes)).toBe(false)
  })

  it("keeps the ICC profile", async () => {
    const original = await noisy(200, 150).jpeg({ quality: 100 }).withIccProfile("p3").toBuffer()
    const out = await optimized(original, { mediaType: "image/jpeg" })
    const [icc, originalIcc] = [
      (await sharp(out.bytes).metadata()).icc,
      (await sharp(original).metadata()).icc
    ]
    expect(icc).toBeDefined()
    expect(icc?.equals(originalIcc ?? Buffer.alloc(0))).toBe(true)
  })
})

describe("optimize-original: HEIF", () => {
  it("converts a HEVC HEIC (no sharp decoder) with its irot applied once, location removed", async () => {
    const heic = await HEVC_HEIC()
    expect(hasLatitude(heic)).toBe(true)
    await expect(sharp(heic).jpeg().toBuffer()).rejects.toThrow()
    const out = await optimized(heic, { mediaType: "image/heic" })
    expect([out.mediaType, out.width, out.height]).toEqual(["image/jpeg", 48, 64])
    const meta = await sharp(out.bytes).metadata()
    expect([meta.format, meta.width, meta.height, meta.orientation ?? 1]).toEqual(["jpeg", 48, 64, 1])
    // irot 270° anticlockwise, and the EXIF orientation 6 not applied on top of it.
    expectColours(await cornersOf(out.bytes), {
      tl: QUADRANTS.bl,
      tr: QUADRANTS.tl,
      bl: QUADRANTS.br,
      br: QUADRANTS.tr
    })
    const tags = ifd0Of(meta.exif)
    expect(tags.get(MAKE)).toBe("FolioTest")
    expect(tags.get(ORIENTATION)).toBe(1)
    expect(tags.has(GPS_IFD)).toBe(false)
    expect(hasLatitude(out.bytes)).toBe(false)
    expect(meta.icc).toBeDefined()
  })

  it("keeps a HEVC HEIC's location when the owner opts in", async () => {
    const out = await optimized(await HEVC_HEIC(), { mediaType: "image/heic", keepLocation: true })
    expect(ifd0Of((await sharp(out.bytes).metadata()).exif).has(GPS_IFD)).toBe(true)
    expect(hasLatitude(out.bytes)).toBe(true)
  })

  it("converts an AV1 HEIF (sharp decodes it)", async () => {
    const heif = await quadrants(64, 48)
      .heif({ compression: "av1", quality: 60 })
      .withExif({ IFD0: CAMERA, IFD3: GPS })
      .toBuffer()
    expect((await sharp(heif).metadata()).compression).toBe("av1")
    expect(hasLatitude(heif)).toBe(true)
    const out = await optimized(heif, { mediaType: "image/heif" })
    expect([out.width, out.height]).toEqual([64, 48])
    const meta = await sharp(out.bytes).metadata()
    expect(meta.format).toBe("jpeg")
    expectColours(await cornersOf(out.bytes), QUADRANTS)
    expect(ifd0Of(meta.exif).has(GPS_IFD)).toBe(false)
    expect(hasLatitude(out.bytes)).toBe(false)
  })
})

describe("optimize-original: what is left alone", () => {
  const none = async (result: ReturnType<typeof optimize>) => {
    const r = await result
    expect(Result.isSuccess(r) && Option.isNone(r.success)).toBe(true)
  }

  it("garbage bytes", async () => {
    await none(
      optimize(new TextEncoder().encode("not an image at all ".repeat(50)), { mediaType: "image/jpeg" })
    )
    await none(
      optimize(new TextEncoder().encode("not an image at all ".repeat(50)), { mediaType: "image/heic" })
    )
  })

  it("bytes of another type than the one named, and types that are not optimized", async () => {
    const png = await quadrants(64, 48).png().toBuffer()
    await none(optimize(png, { mediaType: "image/jpeg" }))
    await none(optimize(await orientedJpeg(), { mediaType: "image/heic" }))
    await none(optimize(png, { mediaType: "image/png" }))
    await none(optimize(await quadrants(64, 48).avif().toBuffer(), { mediaType: "image/avif" }))
  })

  it("a truncated JPEG", async () => {
    const original = await noisy(400, 300).jpeg({ quality: 90 }).toBuffer()
    await none(optimize(original.subarray(0, original.length / 2), { mediaType: "image/jpeg" }))
  })

  it("more than maxInputBytes, without reading past them", async () => {
    const original = await noisy(400, 300).jpeg({ quality: 90 }).toBuffer()
    await none(optimize(original, { mediaType: "image/jpeg", maxInputBytes: original.length - 1 }))
    const failsAfter = Stream.concat(
      Stream.make(new Uint8Array(original)),
      Stream.fail(new StorageError({ message: "read past the bound" }))
    )
    await none(optimize(failsAfter, { mediaType: "image/jpeg", maxInputBytes: 1000 }))
    // Exactly at the bound is fine.
    const exact = await optimize(original, { mediaType: "image/jpeg", maxInputBytes: original.length })
    expect(Result.isSuccess(exact) && Option.isSome(exact.success)).toBe(true)
  })

  it("a storage failure is a failure, not None", async () => {
    const r = await optimize(Stream.fail(new StorageError({ message: "gone" })), { mediaType: "image/jpeg" })
    expect(Result.isFailure(r) && r.failure._tag).toBe("StorageError")
  })
})
