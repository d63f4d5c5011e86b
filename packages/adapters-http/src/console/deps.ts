// What every console route needs, built once per router: the origin, the cookie names, the
// pre-session key, the page assets and the ports the use cases run on. The console's routes and the
// OAuth consent page (a console page under /oauth/) build it the same way.
import { Effect } from "effect"
import { BlobSigningSecret } from "../blobs/Http.js"
import { PublicOrigin } from "../public-origin.js"
import { loadConsoleAssets } from "./assets.js"
import type { ConsoleDeps, ConsolePorts } from "./context.js"
import { consoleCookieNames } from "./cookies.js"

export const makeConsoleDeps = Effect.gen(function* () {
  const origin = yield* PublicOrigin
  const secret = yield* BlobSigningSecret
  const deps: ConsoleDeps = {
    origin,
    names: consoleCookieNames(origin),
    preKey: `console-pre-session:${secret}`,
    assets: loadConsoleAssets(),
    context: yield* Effect.context<ConsolePorts>()
  }
  return deps
})
