// The console's script and stylesheet, built by build-page-assets.mjs into page-assets/: read once at
// start-up, named by their content hash (cached for a year) and compressed ahead of time, as the
// public form page's are.
import { createHash } from "node:crypto"
import { existsSync, readFileSync } from "node:fs"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { negotiateEncoding, type StaticAsset } from "../forms/page/assets.js"

export const CONSOLE_ASSET_PREFIX = "/console/_assets/"

export interface ConsoleAssetUrls {
  readonly script: string
  readonly style: string
}

export interface ConsoleAssets {
  readonly urls: ConsoleAssetUrls
  readonly byPath: ReadonlyMap<string, StaticAsset>
}

const ASSET_DIR = new URL("../../page-assets/", import.meta.url)

const load = (file: string, contentType: string): [string, StaticAsset] => {
  const url = new URL(file, ASSET_DIR)
  if (!existsSync(url)) {
    throw new Error(`the console's ${file} is missing: run \`npm run build\` (it builds page-assets/)`)
  }
  const raw = new Uint8Array(readFileSync(url))
  const hash = createHash("sha256").update(raw).digest("base64url").slice(0, 12)
  const [name, ext] = file.split(".") as [string, string]
  return [
    `${CONSOLE_ASSET_PREFIX}${name}.${hash}.${ext}`,
    {
      contentType,
      raw,
      br: new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })),
      gzip: new Uint8Array(gzipSync(raw, { level: 9 })),
      etag: `"${hash}"`
    }
  ]
}

export const loadConsoleAssets = (): ConsoleAssets => {
  const script = load("console.js", "text/javascript; charset=utf-8")
  const style = load("console.css", "text/css; charset=utf-8")
  return { urls: { script: script[0], style: style[0] }, byPath: new Map([script, style]) }
}

/** GET /console/_assets/*: the hashed file, immutable; 404 for any other name. */
export const serveConsoleAsset = (assets: ConsoleAssets) =>
  Effect.map(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
    const path = new URL(request.url, "http://local").pathname
    const asset = assets.byPath.get(path)
    if (asset === undefined) return HttpServerResponse.empty({ status: 404 })
    if (request.headers["if-none-match"] === asset.etag) return HttpServerResponse.empty({ status: 304 })
    const encoding = negotiateEncoding(request.headers["accept-encoding"])
    const bytes = encoding === "br" ? asset.br : encoding === "gzip" ? asset.gzip : asset.raw
    return HttpServerResponse.uint8Array(bytes, {
      contentType: asset.contentType,
      headers: {
        ...(encoding === undefined ? {} : { "content-encoding": encoding }),
        vary: "accept-encoding",
        etag: asset.etag,
        "cache-control": "public, max-age=31536000, immutable",
        "x-content-type-options": "nosniff"
      }
    })
  })
