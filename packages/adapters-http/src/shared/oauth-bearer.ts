// OAuth access tokens as keyed requests: a bearer that is not a service key is an access token the
// authorization server issued for `resource`; its grant's person and workspace are checked on each
// request, and its requests are budgeted and counted under the grant (`grant:<id>`) as a key's are.
import { makeOAuthAuthenticate, type ScopeSet } from "@folio/domain"
import { Effect } from "effect"
import { requestAuthenticatorOf } from "./bearer-auth.js"

/**
 * Builds, once, the authenticator of OAuth bearers for `resource` (the sharing MCP endpoint's URL):
 * token -> Principal of the scope set's service, refusals as Unauthorized (401), a disabled
 * workspace as AccountDisabled, over budget as RateLimited.
 */
export const makeOAuthRequestAuthenticator = (resource: string, scopeSet: ScopeSet) =>
  Effect.flatMap(makeOAuthAuthenticate(resource, scopeSet), (authenticate) =>
    requestAuthenticatorOf(scopeSet.service, authenticate)
  )
