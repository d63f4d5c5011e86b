// What an OAuth access token may do now: the grant was given by a person in one workspace, and
// every request re-checks that the person is still a member, the workspace is not disabled, and
// caps the token's scopes by what the person's role may grant today (owners and admins: the whole
// scope set; members: the scopes the workspace allows members' keys).
import { Clock, Effect, Option } from "effect"
import { RateLimited, type StorageError, Unauthorized } from "../../kernel/errors.js"
import { type Authenticated, budgetsOf } from "../authenticate.js"
import { AccountDisabled } from "../errors.js"
import { OAuthAccessTokens, OAuthStore, type OAuthTokenGrant } from "../ports/oauth.js"
import { MembershipRepository } from "../ports/people.js"
import { RateLimitStore } from "../ports/rate-limit-store.js"
import { TenantRepository } from "../ports/tenants.js"
import type { PrincipalShape } from "../principal.js"
import { decideRate, keyBucket, RATE_WINDOW_MS, type RateDecision, tighterRate } from "../rate-limit.js"
import type { ScopeSet } from "../scopes.js"
import { memberKeyScopesOf } from "./keys.js"

/** The key id a grant's requests are counted and budgeted under (usage, rate limits). */
export const grantKeyId = (grantId: string): string => `grant:${grantId}`

export const principalOfGrant = (
  grant: OAuthTokenGrant,
  scopeSet: ScopeSet
): Effect.Effect<
  PrincipalShape,
  Unauthorized | AccountDisabled | StorageError,
  MembershipRepository | TenantRepository
> =>
  Effect.gen(function* () {
    const membership = yield* (yield* MembershipRepository).get(grant.tenantId, grant.userId)
    // Answered as any refused token: who left which workspace is nobody's business.
    if (Option.isNone(membership)) return yield* new Unauthorized({ message: "invalid access token" })
    const tenant = yield* (yield* TenantRepository).get(grant.tenantId)
    if (Option.isNone(tenant)) return yield* new Unauthorized({ message: "invalid access token" })
    if (tenant.value.disabledAt !== null) return yield* new AccountDisabled()
    const allowed =
      membership.value.role === "member" ? memberKeyScopesOf(tenant.value, scopeSet) : scopeSet.scopes
    return {
      tenant: grant.tenantId,
      service: scopeSet.service,
      scopes: grant.scopes.filter((s) => allowed.includes(s)),
      keyId: grantKeyId(grant.grantId)
    }
  })

/** A grant's last use is written at most this often (the connected apps page shows it). */
export const GRANT_TOUCH_INTERVAL_MS = 60_000

export type OAuthAuthenticate = (
  token: string,
  clientIp: string
) => Effect.Effect<Authenticated, Unauthorized | AccountDisabled | RateLimited | StorageError>

/**
 * Builds, once, the authentication of OAuth access tokens for `resource` (the token's audience):
 * the token, the person behind its grant (principalOfGrant), and the budgets as a key's: the
 * address's and the grant's own, charged in one round trip. A refused token spends the address's
 * budget, as a refused key does.
 */
export const makeOAuthAuthenticate = (
  resource: string,
  scopeSet: ScopeSet
): Effect.Effect<
  OAuthAuthenticate,
  never,
  OAuthAccessTokens | OAuthStore | RateLimitStore | MembershipRepository | TenantRepository
> =>
  Effect.gen(function* () {
    const tokens = yield* OAuthAccessTokens
    const store = yield* OAuthStore
    const limits = yield* RateLimitStore
    const people = yield* Effect.context<MembershipRepository | TenantRepository>()
    const { perKey, perIp, bucketOfIp } = yield* budgetsOf(scopeSet.service)
    const overAddress = (d: RateDecision) =>
      new RateLimited({
        message: "too many requests from this address",
        retryAfterSeconds: d.resetSeconds,
        budget: d
      })
    return (token, clientIp) =>
      Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        const ipKey = bucketOfIp(clientIp)
        const grant = yield* tokens.verify(token, resource)
        if (Option.isNone(grant)) {
          const hit = yield* limits.hit(ipKey, RATE_WINDOW_MS, now)
          const d = decideRate(hit.count, perIp, hit.resetAt, now)
          return yield* d.allowed
            ? new Unauthorized({ message: "invalid access token", budget: d })
            : overAddress(d)
        }
        const principal = yield* Effect.provideContext(principalOfGrant(grant.value, scopeSet), people)
        const [ipHit, grantHit] = yield* limits.hitMany(
          [ipKey, keyBucket(principal.keyId)],
          RATE_WINDOW_MS,
          now
        )
        const byGrant = decideRate(
          grantHit?.count ?? Number.POSITIVE_INFINITY,
          perKey,
          grantHit?.resetAt ?? now,
          now
        )
        const byIp = ipHit === undefined ? undefined : decideRate(ipHit.count, perIp, ipHit.resetAt, now)
        if (byIp !== undefined && !byIp.allowed) return yield* overAddress(byIp)
        // The last use, for the connected apps page: written at most once a minute, never failing the request.
        yield* Effect.ignore(store.touchGrant(grant.value.grantId, new Date(now), GRANT_TOUCH_INTERVAL_MS))
        return { principal, decision: byIp === undefined ? byGrant : tighterRate(byGrant, byIp) }
      })
  })
