// OAuthAccessTokens over the authorization server: an access token is valid when the server still
// holds it (unexpired, not revoked with its grant) and it was issued for the resource asking.
/// <reference path="./oidc-provider.d.ts" />
import { type OAuthAccessTokensService, type OAuthTokenGrant, StorageError } from "@folio/domain"
import { Effect, Option } from "effect"
import type { AccessTokenInstance, Provider } from "oidc-provider"
import { tenantOfAccount } from "./names.js"

/** Opaque tokens are 43 base64url characters; anything far off that is not looked up. */
const plausible = (token: string): boolean =>
  token.length >= 20 && token.length <= 200 && /^[A-Za-z0-9_-]+$/.test(token)

const audienceIncludes = (aud: AccessTokenInstance["aud"], resource: string): boolean =>
  typeof aud === "string" ? aud === resource : aud?.includes(resource) === true

export const grantOfToken = (
  token: AccessTokenInstance,
  resource: string
): Option.Option<OAuthTokenGrant> => {
  if (!token.isValid || token.isExpired || !audienceIncludes(token.aud, resource)) return Option.none()
  const account = token.accountId ?? ""
  const tenantId = tenantOfAccount(account)
  if (tenantId === null || token.grantId === undefined || token.clientId === undefined) return Option.none()
  return Option.some({
    grantId: token.grantId,
    clientId: token.clientId,
    tenantId,
    userId: account.slice(tenantId.length + 1),
    scopes: (token.scope ?? "").split(" ").filter((s) => s.length > 0)
  })
}

export const makeOAuthAccessTokens = (providerNow: () => Promise<Provider>): OAuthAccessTokensService => ({
  verify: (token, resource) =>
    plausible(token)
      ? Effect.map(
          Effect.tryPromise({
            try: async () => (await providerNow()).AccessToken.find(token),
            catch: (cause) => new StorageError({ message: "cannot read the access token", cause })
          }),
          (found) => (found === undefined ? Option.none() : grantOfToken(found, resource))
        )
      : Effect.succeed(Option.none())
})
