// The page's scripts (the form's and the interview chat's) and stylesheet, built by
// build-page-assets.mjs: read once at start-up, named by their content hash (so browsers may keep
// them for a year), and compressed once per process and built file, when first sent (a second app
// in the same process, as a test or an embedder starts, reuses the first's compressed bytes).
import { createHash } from "node:crypto"
import { readFileSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { pathToFileURL } from "node:url"
import { brotliCompressSync, constants, gzipSync } from "node:zlib"
import { Effect } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import type { PageAssets } from "./page.js"

export const ASSET_PREFIX = "/f/_assets/"

export interface StaticAsset {
  readonly contentType: string
  readonly raw: Uint8Array
  readonly br: Uint8Array
  readonly gzip: Uint8Array
  readonly etag: string
}

export interface LoadedAssets {
  readonly urls: PageAssets
  readonly byPath: ReadonlyMap<string, StaticAsset>
}

/**
 * Where build-page-assets.mjs writes: this package's page-assets/, found through the package's own
 * name, so src/, dist/ and the app's bundle (packages/app/bundle.mjs) all find the same folder.
 */
export const ASSET_DIR = new URL(
  "page-assets/",
  pathToFileURL(createRequire(import.meta.url).resolve("@folio/adapters-http/package.json"))
)

/** The assets this process has compressed, by prefix, type and file, with the file's stat then. */
const compressed = new Map<
  string,
  { readonly mtimeMs: number; readonly size: number; readonly asset: [string, StaticAsset] }
>()

/**
 * Reads one built file of ASSET_DIR and names it `${prefix}${name}.${hash}.${ext}`, compressed
 * when first sent; `owner` names the pages it serves in the error a missing build gets.
 */
export const loadAsset =
  (prefix: string, owner: string) =>
  (file: string, contentType: string): [string, StaticAsset] => {
    const url = new URL(file, ASSET_DIR)
    const stat = statSync(url, { throwIfNoEntry: false })
    if (stat === undefined) {
      throw new Error(`${owner}'s ${file} is missing: run \`npm run build\` (it builds page-assets/)`)
    }
    // Brotli at its best quality takes a tenth of a second per file: done again only when the
    // built file changed (a rebuild while the process runs).
    const { mtimeMs, size } = stat
    const key = `${prefix} ${contentType} ${url.href}`
    const cached = compressed.get(key)
    if (cached !== undefined && cached.mtimeMs === mtimeMs && cached.size === size) return cached.asset
    const asset = compress(prefix, file, contentType, new Uint8Array(readFileSync(url)))
    compressed.set(key, { mtimeMs, size, asset })
    return asset
  }

const compress = (
  prefix: string,
  file: string,
  contentType: string,
  raw: Uint8Array
): [string, StaticAsset] => {
  const hash = createHash("sha256").update(raw).digest("base64url").slice(0, 12)
  const [name, ext] = file.split(".") as [string, string]
  // Each encoding is made when it is first sent, not at start-up (the five files' took ~0.16 s of
  // every server start), then kept.
  let br: Uint8Array | undefined
  let gzip: Uint8Array | undefined
  return [
    `${prefix}${name}.${hash}.${ext}`,
    {
      contentType,
      raw,
      get br() {
        br ??= new Uint8Array(brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
        return br
      },
      get gzip() {
        gzip ??= new Uint8Array(gzipSync(raw, { level: 9 }))
        return gzip
      },
      etag: `"${hash}"`
    }
  ]
}

const load = loadAsset(ASSET_PREFIX, "the public form page")

/** GET of a hashed asset: immutable for a year, 304 on its etag, 404 for any other name. */
export const serveStaticAsset = (byPath: ReadonlyMap<string, StaticAsset>) =>
  Effect.map(Effect.service(HttpServerRequest.HttpServerRequest), (request) => {
    const path = new URL(request.url, "http://local").pathname
    const asset = byPath.get(path)
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

export const loadPageAssets = (): LoadedAssets => {
  const script = load("form.js", "text/javascript; charset=utf-8")
  const interview = load("interview.js", "text/javascript; charset=utf-8")
  const style = load("form.css", "text/css; charset=utf-8")
  return {
    urls: { script: script[0], style: style[0], interviewScript: interview[0] },
    byPath: new Map([script, interview, style])
  }
}

/** The best encoding the client accepts of brotli and gzip, if any. */
export const negotiateEncoding = (accept: string | undefined): "br" | "gzip" | undefined => {
  const offered = (accept ?? "")
    .toLowerCase()
    .split(",")
    .map((part) => {
      const [name = "", ...params] = part.trim().split(";")
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
      return { name: name.trim(), q: q === undefined ? 1 : Number(q.slice(2)) }
    })
    .filter((e) => e.q > 0)
    .map((e) => e.name)
  if (offered.includes("br")) return "br"
  if (offered.includes("gzip")) return "gzip"
  return undefined
}
