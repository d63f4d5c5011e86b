// The console's script and stylesheet, built by build-page-assets.mjs into page-assets/: read once at
// start-up, named by their content hash (cached for a year) and compressed ahead of time, as the
// public form page's are.
import { loadAsset, serveStaticAsset, type StaticAsset } from "../forms/page/assets.js"

export const CONSOLE_ASSET_PREFIX = "/console/_assets/"

export interface ConsoleAssetUrls {
  readonly script: string
  readonly style: string
}

export interface ConsoleAssets {
  readonly urls: ConsoleAssetUrls
  readonly byPath: ReadonlyMap<string, StaticAsset>
}

const load = loadAsset(CONSOLE_ASSET_PREFIX, "the console")

export const loadConsoleAssets = (): ConsoleAssets => {
  const script = load("console.js", "text/javascript; charset=utf-8")
  const style = load("console.css", "text/css; charset=utf-8")
  return { urls: { script: script[0], style: style[0] }, byPath: new Map([script, style]) }
}

/** GET /console/_assets/*: the hashed file, immutable; 404 for any other name. */
export const serveConsoleAsset = (assets: ConsoleAssets) => serveStaticAsset(assets.byPath)
