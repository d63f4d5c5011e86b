// QR codes of a resource's public URL: the PNG decodes back to the URL with an independent decoder
// (jsQR over pngjs) at several sizes, is exactly the asked size, and draws whole-pixel modules; the
// SVG is well-formed, has the asked size, and its modules decode back to the URL too; the query
// parameters refuse what the spec's range does not allow.
import { Effect, Exit, Schema } from "effect"
import jsQRModule from "jsqr"
import { PNG } from "pngjs"
import { describe, expect, it } from "vitest"
import { QR_SIZE, QrFormatParam, QrSizeParam, qrCode } from "../../packages/adapters-http/src/sharing/qr.js"

// jsqr is CommonJS typed as an ES module with a default export: under NodeNext the default import
// is the whole module, whose function is itself or its `default` depending on the loader.
type JsQR = (typeof jsQRModule)["default"]
const jsQR: JsQR = (jsQRModule as unknown as { default?: JsQR }).default ?? (jsQRModule as unknown as JsQR)

const URL_ = "https://folio.example/s/launch-notes?utm_source=qr"

const decodePng = (bytes: Uint8Array) => {
  const png = PNG.sync.read(Buffer.from(bytes))
  const found = jsQR(new Uint8ClampedArray(png.data), png.width, png.height)
  return { width: png.width, height: png.height, text: found?.data, png }
}

describe("qrCode: PNG", () => {
  it.each([128, 200, 333, 512, 777, 1024, 2048])("decodes back to the URL at %i pixels", async (size) => {
    const image = await Effect.runPromise(qrCode(URL_, { size }))
    expect(image.contentType).toBe("image/png")
    expect([...image.body.slice(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    const decoded = decodePng(image.body)
    expect({ width: decoded.width, height: decoded.height }).toEqual({ width: size, height: size })
    expect(decoded.text).toBe(URL_)
  })

  it("is PNG at 512 pixels by default", async () => {
    const image = await Effect.runPromise(qrCode(URL_))
    expect(image.contentType).toBe("image/png")
    const decoded = decodePng(image.body)
    expect([decoded.width, decoded.text]).toEqual([QR_SIZE.default, URL_])
  })

  it("draws only black and white, with a white quiet zone of at least four modules", async () => {
    const size = 300
    const { png } = decodePng((await Effect.runPromise(qrCode(URL_, { size }))).body)
    const at = (x: number, y: number) => png.data[(y * size + x) * 4] ?? -1
    const values = new Set<number>()
    for (let i = 0; i < size * size; i++) values.add(png.data[i * 4] ?? -1)
    expect([...values].sort((a, b) => a - b)).toEqual([0, 255])
    // The finder pattern's outer ring is 7 modules: a whole number of pixels each, and the white
    // quiet zone before it at least 4 modules wide, the same on the right (the symbol is centred).
    let first = 0
    while (at(first, first) === 255) first++
    let run = 0
    while (at(first + run, first) === 0) run++
    expect(run % 7).toBe(0)
    const scale = run / 7
    expect(scale).toBeGreaterThanOrEqual(7)
    expect(first).toBeGreaterThanOrEqual(4 * scale)
    let last = size - 1
    while (at(last, first) === 255) last--
    expect(Math.abs(size - 1 - last - first)).toBeLessThanOrEqual(1)
    expect((last + 1 - first) % scale).toBe(0)
  })

  it("encodes a different URL differently", async () => {
    const other = "https://folio.example/s/another"
    const decoded = decodePng((await Effect.runPromise(qrCode(other, { size: 256 }))).body)
    expect(decoded.text).toBe(other)
  })
})

/** The dark modules of the `qrcode` library's SVG path (`M x y.5 h n m dx dy ...`, a stroke a row). */
const modulesOfSvg = (svg: string): { readonly n: number; readonly dark: ReadonlySet<string> } => {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg)
  const n = Number(viewBox?.[1])
  const d = /<path stroke="#000000" d="([^"]+)"/.exec(svg)?.[1] ?? ""
  const dark = new Set<string>()
  let x = 0
  let y = 0
  for (const [, command, args] of d.matchAll(/([Mmh])([^Mmh]*)/g)) {
    const numbers = (args ?? "")
      .trim()
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number)
    if (command === "M") [x, y] = [numbers[0] ?? 0, numbers[1] ?? 0]
    else if (command === "m") [x, y] = [x + (numbers[0] ?? 0), y + (numbers[1] ?? 0)]
    else {
      const length = numbers[0] ?? 0
      for (let i = 0; i < length; i++) dark.add(`${x + i},${Math.floor(y)}`)
      x += length
    }
  }
  return { n, dark }
}

/** A tiny well-formedness check: one root, every element closed in order, attributes quoted. */
const wellFormed = (xml: string): ReadonlyArray<string> => {
  const stack: Array<string> = []
  const roots: Array<string> = []
  const rest = xml
    .trim()
    .replace(
      /<([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<\/([a-zA-Z][\w:-]*)>/g,
      (_, open, _a, selfClosing, close) => {
        if (open !== undefined) {
          if (stack.length === 0) roots.push(open)
          if (selfClosing !== "/") stack.push(open)
        } else if (stack.pop() !== close) throw new Error(`</${close}> closes another element`)
        return ""
      }
    )
  if (stack.length > 0) throw new Error(`unclosed ${stack.join(", ")}`)
  if (rest.trim() !== "") throw new Error(`stray text: ${rest.slice(0, 80)}`)
  return roots
}

describe("qrCode: SVG", () => {
  it.each([128, 512, 2048])(
    "is well-formed, %i pixels square, and its modules decode to the URL",
    async (size) => {
      const image = await Effect.runPromise(qrCode(URL_, { format: "svg", size }))
      expect(image.contentType).toBe("image/svg+xml")
      const svg = new TextDecoder("utf-8", { fatal: true }).decode(image.body)
      expect(wellFormed(svg)).toEqual(["svg"])
      const root = /^<svg [^>]*>/.exec(svg.trim())?.[0] ?? ""
      expect(root).toContain('xmlns="http://www.w3.org/2000/svg"')
      expect(root).toContain(`width="${size}"`)
      expect(root).toContain(`height="${size}"`)
      expect(svg).not.toMatch(/<script|\son\w+=/i)
      // Rasterise the modules (4 pixels each) and read them with the same decoder as the PNG.
      const { n, dark } = modulesOfSvg(svg)
      expect(n).toBeGreaterThanOrEqual(21 + 8)
      const scale = 4
      const side = n * scale
      const rgba = new Uint8ClampedArray(side * side * 4).fill(255)
      for (const key of dark) {
        const [mx, my] = key.split(",").map(Number) as [number, number]
        for (let dy = 0; dy < scale; dy++)
          for (let dx = 0; dx < scale; dx++) {
            const p = ((my * scale + dy) * side + mx * scale + dx) * 4
            rgba[p] = rgba[p + 1] = rgba[p + 2] = 0
          }
      }
      expect(jsQR(rgba, side, side)?.data).toBe(URL_)
    }
  )
})

describe("the QR query parameters", () => {
  const size = Schema.decodeUnknownExit(QrSizeParam)
  const format = Schema.decodeUnknownExit(QrFormatParam)

  it("accept 128..2048 whole pixels, and png or svg", () => {
    expect(size("128")).toEqual(Exit.succeed(128))
    expect(size("2048")).toEqual(Exit.succeed(2048))
    expect(size("512")).toEqual(Exit.succeed(512))
    expect(format("png")).toEqual(Exit.succeed("png"))
    expect(format("svg")).toEqual(Exit.succeed("svg"))
  })

  it.each(["127", "2049", "0", "-512", "512.5", "abc", "", "1e3x", "NaN", "Infinity"])(
    "refuse size %j",
    (value) => {
      expect(Exit.isFailure(size(value))).toBe(true)
    }
  )

  it.each(["gif", "PNG", "jpeg", ""])("refuse format %j", (value) => {
    expect(Exit.isFailure(format(value))).toBe(true)
  })
})
