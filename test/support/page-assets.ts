// Vitest global setup: builds the public form page's script and stylesheet (esbuild, well under a
// second), so `npm test` needs no separate build step.
// @ts-expect-error: a plain ES module without type declarations
import { buildPageAssets } from "../../packages/adapters-http/build-page-assets.mjs"

export default async function setup(): Promise<void> {
  await buildPageAssets()
}
