// The authorization server as the app holds it: one oidc-provider over the OAuthStore, with what
// the rest of the app takes from it (the node:http mount, token verification, the console's
// interactions), built once, at its first use.
import { OAuthAccessTokens, OAuthStore, RateLimitStore } from "@folio/domain"
import { Context, Effect, Layer } from "effect"
import type { Provider } from "oidc-provider"
import type { FastPath } from "../sharing/public/fast-redirect.js"
import { makeOAuthAccessTokens } from "./access-tokens.js"
import { makeOAuthInteractions, type OAuthInteractionsService } from "./interactions.js"
import { sharingMcpResource } from "../shared/protected-resource.js"
import { makeOAuthFastPath } from "./mount.js"
import type { MetadataFetch } from "./names.js"

export interface OAuthServerService {
  /** The protected resource (the sharing MCP endpoint's URL). */
  readonly resource: string
  readonly fastPath: FastPath
  readonly interactions: OAuthInteractionsService
}

export class OAuthServer extends Context.Service<OAuthServer, OAuthServerService>()(
  "@folio/adapters-http/OAuthServer"
) {}

/** The console's view of pending authorizations (the consent page). */
export class OAuthInteractions extends Context.Service<OAuthInteractions, OAuthInteractionsService>()(
  "@folio/adapters-http/OAuthInteractions"
) {}

export interface OAuthServerOptions {
  readonly publicOrigin: string
  readonly secret: string
  readonly fetch: MetadataFetch
  /** Log the server's answers as the app's access log does. */
  readonly accessLog: boolean
  /** Client registrations per address per hour (registration is open to anyone). */
  readonly registrationsPerHour: number
}

const HOUR_MS = 60 * 60 * 1000

/** The server, its token verifier (OAuthAccessTokens) and its interactions, over the OAuthStore. */
export const OAuthServerLive = (options: OAuthServerOptions) =>
  Layer.effectContext(
    Effect.gen(function* () {
      const store = yield* OAuthStore
      const limits = yield* RateLimitStore
      const resource = sharingMcpResource(options.publicOrigin)
      // The server (with oidc-provider, ~0.25 s to load) is built at its first use: a request to
      // one of its paths, a consent page, an access token to verify. Most starts see none.
      let built: Promise<Provider> | undefined
      const providerNow = () =>
        (built ??= import("./provider.js").then(({ makeOAuthProvider }) => {
          const provider = makeOAuthProvider({
            issuer: options.publicOrigin,
            resource,
            secret: options.secret,
            store,
            fetch: options.fetch
          })
          // Each authorization signs the browser in at the server for that one authorization only:
          // the next one asks again and may act in another workspace (the session's account is
          // per workspace).
          provider.on("authorization.success", (ctx) => {
            const session = (ctx as { oidc?: { session?: { destroyed?: boolean } } }).oidc?.session
            if (session !== undefined) session.destroyed = true
          })
          // The library reports server-side failures as events; they are logged without their
          // details (which may hold a token or a client's metadata).
          provider.on("server_error", (_ctx, error) => {
            console.error("authorization server error", error instanceof Error ? error.name : "unknown")
          })
          return provider
        }))
      const interactions = makeOAuthInteractions(providerNow, resource, options.publicOrigin)
      return Context.make(OAuthServer, {
        resource,
        fastPath: makeOAuthFastPath(providerNow, options.publicOrigin, {
          accessLog: options.accessLog,
          registrationBudget: (address) =>
            Effect.runPromise(
              Effect.map(
                limits.hit(`oauth-register:${address}`, HOUR_MS, Date.now()),
                (hit) => hit.count <= options.registrationsPerHour
              )
            )
        }),
        interactions
      }).pipe(
        Context.add(OAuthInteractions, interactions),
        Context.add(OAuthAccessTokens, makeOAuthAccessTokens(providerNow))
      )
    })
  )
