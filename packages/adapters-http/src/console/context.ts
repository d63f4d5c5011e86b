// What the console's routes share: the ports the use cases run on (captured once, with the policies
// the app configured), the cookie names, the key of the pre-session CSRF token, the assets; and the
// steps every route takes: who is signed in, in which workspace, whether a post passes CSRF, and the
// page chrome.
import {
  type ApiKeyRepository,
  type AuditLog,
  type ConsoleActor,
  consoleActor,
  type IdGen,
  type InvalidationBus,
  type MembershipRepository,
  type OAuthStore,
  type OneTimeTokenRepository,
  type PasskeyCeremony,
  type PasskeyRepository,
  type PasswordHashing,
  type RateLimitStore,
  resolveSession,
  type SessionRecord,
  type SessionRepository,
  switchWorkspace,
  type TenantRepository,
  type UserRecord,
  type UserRepository,
  workspacesOf
} from "@folio/domain"
import { type Context, Effect, Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { ConsoleAssets } from "./assets.js"
import { type ConsoleCookieNames, cookieValue, preSessionCookie } from "./cookies.js"
import { newRandomToken, preSessionToken, sameOrigin, tokensEqual } from "./csrf.js"
import type { PageChrome, Section } from "./layout.js"
import { clientOf } from "./request.js"

/** Every port a console use case may need. */
export type ConsolePorts =
  | UserRepository
  | MembershipRepository
  | SessionRepository
  | PasskeyRepository
  | OneTimeTokenRepository
  | AuditLog
  | PasswordHashing
  | PasskeyCeremony
  | RateLimitStore
  | TenantRepository
  | ApiKeyRepository
  | OAuthStore
  | IdGen
  | InvalidationBus

export interface ConsoleDeps {
  readonly origin: string
  readonly names: ConsoleCookieNames
  /** Signs the pre-session cookie into the signed-out forms' CSRF token. */
  readonly preKey: string
  readonly assets: ConsoleAssets
  readonly context: Context.Context<ConsolePorts>
}

/** Runs a use case on the captured ports (and the policies: SessionPolicy, SignInPolicy, ...). */
export const runOn =
  (deps: ConsoleDeps) =>
  <A, E>(effect: Effect.Effect<A, E, ConsolePorts>): Effect.Effect<A, E> =>
    Effect.provideContext(effect, deps.context)

export interface SignedIn {
  readonly token: string
  readonly session: SessionRecord
  readonly user: UserRecord
  /** The client address, for the audit log of account changes. */
  readonly ip: string | null
}

/** The session the request's cookie names, when it is live (touched as a side effect). */
export const signedInOf = (deps: ConsoleDeps, request: HttpServerRequest.HttpServerRequest) => {
  const token = cookieValue(request, deps.names.session)
  if (token === undefined) return Effect.succeed(Option.none<SignedIn>())
  return Effect.map(
    runOn(deps)(resolveSession(token)),
    Option.map(({ session, user }): SignedIn => ({ token, session, user, ip: clientOf(request).ip }))
  )
}

export interface Acting extends SignedIn {
  /** Null when the person belongs to no workspace (the account page still works). */
  readonly actor: ConsoleActor | null
}

/**
 * The person acting in their session's workspace. A session whose workspace is gone (removed, or
 * left) moves to the person's first other workspace, so the console never shows a dead one.
 */
export const actingOf = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  signed: SignedIn
) => {
  const { ip } = clientOf(request)
  return runOn(deps)(
    Effect.gen(function* () {
      const direct = yield* consoleActor(signed.session, signed.user, ip).pipe(
        Effect.map(Option.some),
        Effect.catchTag("NotAMember", () => Effect.succeed(Option.none<ConsoleActor>()))
      )
      if (Option.isSome(direct)) return { ...signed, actor: direct.value } satisfies Acting
      const first = (yield* workspacesOf(signed.user.id))[0]
      if (first === undefined) return { ...signed, actor: null } satisfies Acting
      const session = yield* switchWorkspace(signed.session, first.tenantId)
      const actor = yield* consoleActor(session, signed.user, ip)
      return { ...signed, session, actor } satisfies Acting
    })
  )
}

/** A post signed in: from our origin, echoing the session's token (form field or JSON header). */
export const sessionPostAllowed = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  session: SessionRecord,
  presented: string
) => sameOrigin(request, deps.origin) && tokensEqual(presented, session.csrfToken)

/** A post signed out: from our origin, echoing the token derived from the pre-session cookie. */
export const preSessionPostAllowed = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  presented: string
) => {
  const pre = cookieValue(request, deps.names.pre)
  return (
    sameOrigin(request, deps.origin) &&
    pre !== undefined &&
    tokensEqual(presented, preSessionToken(deps.preKey, pre))
  )
}

/** The signed-out forms' token, and the pre-session cookie to set when the browser has none yet. */
export const preSessionOf = (deps: ConsoleDeps, request: HttpServerRequest.HttpServerRequest) => {
  const existing = cookieValue(request, deps.names.pre)
  const pre = existing ?? newRandomToken()
  return {
    csrf: preSessionToken(deps.preKey, pre),
    cookies: existing === undefined ? [preSessionCookie(deps.names, pre)] : []
  }
}

/** The chrome of a signed-in page: the top bar's workspaces, names and role. */
export const signedInChrome = (
  deps: ConsoleDeps,
  acting: Acting,
  nonce: string,
  title: string,
  section: Section | null
): Effect.Effect<PageChrome> =>
  Effect.map(
    runOn(deps)(workspacesOf(acting.user.id)).pipe(Effect.orElseSucceed(() => [])),
    (workspaces): PageChrome => ({
      nonce,
      assets: deps.assets.urls,
      csrf: acting.session.csrfToken,
      title,
      signedIn: {
        email: acting.user.email,
        displayName: acting.user.displayName,
        role: acting.actor?.role ?? null,
        tenantId: acting.actor?.tenantId ?? null,
        workspaces: workspaces.map((w) => ({ tenantId: w.tenantId, name: w.tenantName, role: w.role })),
        section
      }
    })
  )

export const signedOutChrome = (
  deps: ConsoleDeps,
  nonce: string,
  csrf: string,
  title: string
): PageChrome => ({
  nonce,
  assets: deps.assets.urls,
  csrf,
  title
})
