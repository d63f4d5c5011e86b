// The console's side of an authorization: read the interaction the browser is in (the server's
// interaction cookie must match, so a link to another browser's interaction shows nothing), and
// finish it with the person's consent (a grant for the scopes chosen, in one workspace) or a refusal.
/// <reference path="./oidc-provider.d.ts" />
import { IncomingMessage, ServerResponse } from "node:http"
import { StorageError } from "@folio/domain"
import { Effect, Option } from "effect"
import type { Provider } from "oidc-provider"
import { OAUTH_RESOURCE_SCOPES } from "./names.js"

/** An authorization waiting for the person's answer, as the consent page shows it. */
export interface PendingAuthorization {
  readonly uid: string
  readonly clientId: string
  /** The client's registered name; its id when it has none (a metadata document's URL). */
  readonly clientName: string
  /** Where the client will receive the answer (its origin is shown, so the person knows who asks). */
  readonly redirectUri: string
  /** The sharing scopes the client asked for, in the service's order. */
  readonly requestedScopes: ReadonlyArray<string>
}

export interface OAuthInteractionsService {
  /** The browser's pending authorization `uid`; none when its cookie does not match or it expired. */
  readonly pending: (request: unknown, uid: string) => Effect.Effect<Option.Option<PendingAuthorization>>
  /**
   * Grants `scopes` to the client for `accountId` (`tenantId:userId`) and returns where the browser
   * goes next (back to the authorization endpoint, which redirects to the client with a code).
   */
  readonly approve: (
    request: unknown,
    uid: string,
    consent: { readonly accountId: string; readonly scopes: ReadonlyArray<string> }
  ) => Effect.Effect<string, StorageError>
  /** Ends the authorization with access_denied; where the browser goes next. */
  readonly deny: (request: unknown, uid: string) => Effect.Effect<string, StorageError>
}

const failed = (cause: unknown) =>
  new StorageError({ message: "authorization server operation failed", cause })

/** The node request under an Effect request (`source`), or the value itself when it is one. */
const incomingOf = (request: unknown): IncomingMessage | undefined => {
  const source =
    typeof request === "object" && request !== null && "source" in request
      ? (request as { source: unknown }).source
      : request
  return source instanceof IncomingMessage ? source : undefined
}

const scopesOf = (value: unknown): ReadonlyArray<string> =>
  typeof value === "string" ? value.split(" ").filter((s) => s.length > 0) : []

export const makeOAuthInteractions = (
  providerNow: () => Promise<Provider>,
  resource: string,
  publicOrigin: string
): OAuthInteractionsService => {
  const origin = new URL(publicOrigin)
  const details = (request: unknown, uid: string) => {
    const req = incomingOf(request)
    if (req === undefined) return Effect.succeed(undefined)
    // As the mount does: the server reads the request as the public origin's (its secure cookies).
    req.headers["x-forwarded-proto"] = origin.protocol.slice(0, -1)
    req.headers["x-forwarded-host"] = origin.host
    return Effect.map(
      Effect.promise(() =>
        providerNow()
          .then((provider) => provider.interactionDetails(req, new ServerResponse(req)))
          .then(
            (d) => (d.uid === uid ? { req, details: d } : undefined),
            () => undefined
          )
      ),
      (found) => found
    )
  }

  const pending: OAuthInteractionsService["pending"] = (request, uid) =>
    Effect.flatMap(details(request, uid), (found) => {
      if (found === undefined) return Effect.succeed(Option.none())
      const params = found.details.params
      const clientId = typeof params.client_id === "string" ? params.client_id : ""
      return Effect.map(
        Effect.promise(() =>
          providerNow()
            .then((provider) => provider.Client.find(clientId))
            .catch(() => undefined)
        ),
        (client) => {
          if (client === undefined) return Option.none()
          const requested = scopesOf(params.scope)
          return Option.some({
            uid,
            clientId,
            clientName: client.clientName ?? clientId,
            redirectUri: typeof params.redirect_uri === "string" ? params.redirect_uri : "",
            requestedScopes: OAUTH_RESOURCE_SCOPES.filter((s) => requested.includes(s))
          })
        }
      )
    })

  const finish = (
    request: unknown,
    uid: string,
    result: (params: Readonly<Record<string, unknown>>) => Promise<Record<string, unknown>>
  ) =>
    Effect.flatMap(details(request, uid), (found) =>
      found === undefined
        ? Effect.fail(failed("no such interaction"))
        : Effect.tryPromise({
            try: async () =>
              (await providerNow()).interactionResult(
                found.req,
                new ServerResponse(found.req),
                await result(found.details.params),
                {
                  mergeWithLastSubmission: false
                }
              ),
            catch: failed
          })
    )

  return {
    pending,
    approve: (request, uid, consent) =>
      finish(request, uid, async (params) => {
        const clientId = String(params.client_id)
        const requested = scopesOf(params.scope)
        const provider = await providerNow()
        const grant = new provider.Grant({ accountId: consent.accountId, clientId })
        const granted = OAUTH_RESOURCE_SCOPES.filter((s) => consent.scopes.includes(s))
        // The sharing scopes are also the server's own scope values (so clients may register
        // them), hence granted and refused both for the resource and as the server's scopes.
        if (granted.length > 0) {
          grant.addResourceScope(resource, granted.join(" "))
          grant.addOIDCScope(granted.join(" "))
        }
        // What was asked and not granted is recorded as refused, so the server does not ask again.
        const refused = OAUTH_RESOURCE_SCOPES.filter((s) => requested.includes(s) && !granted.includes(s))
        if (refused.length > 0) {
          grant.rejectResourceScope(resource, refused.join(" "))
          grant.rejectOIDCScope(refused.join(" "))
        }
        for (const oidc of ["openid", "offline_access"])
          if (requested.includes(oidc)) grant.addOIDCScope(oidc)
        const grantId = await grant.save()
        return { login: { accountId: consent.accountId, remember: false }, consent: { grantId } }
      }),
    deny: (request, uid) =>
      finish(request, uid, async () => ({
        error: "access_denied",
        error_description: "the person did not authorize the application"
      }))
  }
}
