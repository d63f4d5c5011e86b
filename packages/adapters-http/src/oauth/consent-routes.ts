// The consent step of an authorization, served by the console: GET /oauth/interaction/:uid shows
// the request (signed out: the sign-in page first, coming back here), POST approves it for one of
// the person's workspaces with the scopes they chose, or denies it. CSRF and Origin checked as for
// every console post; the browser must also hold the authorization server's interaction cookie.
import {
  actorInWorkspace,
  authorizeApp,
  rememberClientName,
  grantableScopes,
  SHARING_SCOPE_SET,
  workspacesOf
} from "@folio/domain"
import { Effect, Option } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import {
  type ConsoleDeps,
  runOn,
  type SignedIn,
  sessionPostAllowed,
  signedInOf,
  signedOutChrome
} from "../console/context.js"
import { refusalOf } from "../console/failures.js"
import type { PageChrome } from "../console/layout.js"
import { type ConsentWorkspace, renderConsentPage } from "../console/pages/consent.js"
import { renderMessagePage } from "../console/pages/message.js"
import { clientOf, field, formOf, htmlPage, newNonce, seeOther } from "../console/request.js"
import { consoleContentSecurityPolicy } from "../console/layout.js"
import { makeConsoleDeps } from "../console/deps.js"
import type { PendingAuthorization } from "./interactions.js"
import { OAuthInteractions } from "./server.js"

const GONE = {
  heading: "This request has expired",
  text: "This authorization request has expired or was started in another browser. Start again from the application.",
  alert: true
}

/** The answer's origin, for the page and for the CSP (the form's redirect chain ends there). */
const originOf = (uri: string): string | undefined => {
  try {
    const url = new URL(uri)
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : undefined
  } catch {
    return undefined
  }
}

/**
 * The console's CSP, but the form may lead to the application's redirect URI: browsers check
 * form-action on every redirect after a form post, and the approval ends at the application.
 */
const consentCsp = (nonce: string, redirectUri: string): string => {
  const origin = originOf(redirectUri)
  const base = consoleContentSecurityPolicy(nonce)
  return origin === undefined ? base : base.replace("form-action 'self'", `form-action 'self' ${origin}`)
}

const chromeOf = (deps: ConsoleDeps, signed: SignedIn, nonce: string): PageChrome => ({
  ...signedOutChrome(deps, nonce, signed.session.csrfToken, "Connect an application"),
  csrf: signed.session.csrfToken
})

const workspacesFor = (deps: ConsoleDeps, signed: SignedIn) =>
  runOn(deps)(
    Effect.flatMap(workspacesOf(signed.user.id), (memberships) =>
      Effect.forEach(memberships, (m) =>
        Effect.map(
          grantableScopes(
            {
              userId: signed.user.id,
              email: signed.user.email,
              sessionId: signed.session.id,
              tenantId: m.tenantId,
              role: m.role,
              ip: signed.ip
            },
            SHARING_SCOPE_SET
          ),
          (grantable): ConsentWorkspace => ({
            tenantId: m.tenantId,
            name: m.tenantName,
            role: m.role,
            grantable,
            disabled: m.tenantDisabled
          })
        )
      )
    )
  )

const consentPage = (
  deps: ConsoleDeps,
  signed: SignedIn,
  pending: PendingAuthorization,
  choice: {
    readonly tenantId?: string | undefined
    readonly scopes: ReadonlyArray<string>
    readonly error?: string | undefined
  },
  status = 200
) =>
  Effect.map(workspacesFor(deps, signed), (workspaces) => {
    const nonce = newNonce()
    const body = renderConsentPage(chromeOf(deps, signed, nonce), {
      uid: pending.uid,
      clientName: pending.clientName,
      clientId: pending.clientId,
      redirectHost: originOf(pending.redirectUri) ?? pending.redirectUri,
      requestedScopes: pending.requestedScopes,
      workspaces,
      selectedTenant: choice.tenantId ?? signed.session.tenantId ?? undefined,
      selectedScopes: choice.scopes,
      error: choice.error
    })
    return htmlPage(body, nonce, status, {
      headers: { "content-security-policy": consentCsp(nonce, pending.redirectUri) }
    })
  })

const messagePage = (deps: ConsoleDeps, status: number, message: Parameters<typeof renderMessagePage>[1]) => {
  const nonce = newNonce()
  return htmlPage(
    renderMessagePage(signedOutChrome(deps, nonce, "", message.heading), message),
    nonce,
    status
  )
}

const signInFirst = (uid: string) =>
  seeOther(`/sign-in?next=${encodeURIComponent(`/oauth/interaction/${uid}`)}`)

const uidOf = (params: Readonly<Record<string, string | undefined>>) => (params.uid ?? "").slice(0, 100)

export const OAuthConsentRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const deps = yield* makeConsoleDeps
    /** What failed, as a page: the refusal's status and its value-free message. */
    const refusedPage = (error: unknown) => {
      const refusal = refusalOf(error)
      return messagePage(deps, refusal.status, {
        heading: "This could not be done",
        text: refusal.message,
        alert: true
      })
    }
    const interactions = yield* OAuthInteractions

    yield* router.add(
      "GET",
      "/oauth/interaction/:uid",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const uid = uidOf((yield* HttpRouter.params) as Record<string, string | undefined>)
        const pending = yield* interactions.pending(request, uid)
        if (Option.isNone(pending)) return messagePage(deps, 404, GONE)
        const signed = yield* signedInOf(deps, request)
        if (Option.isNone(signed)) return signInFirst(uid)
        return yield* consentPage(deps, signed.value, pending.value, { scopes: ["read"] })
      }).pipe(Effect.catch((error) => Effect.succeed(refusedPage(error))))
    )

    yield* router.add(
      "POST",
      "/oauth/interaction/:uid",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const uid = uidOf((yield* HttpRouter.params) as Record<string, string | undefined>)
        const form = yield* formOf(request)
        const signed = yield* signedInOf(deps, request)
        if (Option.isNone(signed)) return signInFirst(uid)
        if (!sessionPostAllowed(deps, request, signed.value.session, field(form, "csrf")))
          return messagePage(deps, 403, {
            heading: "This form has expired",
            text: "Reload the page and try again.",
            alert: true
          })
        const pending = yield* interactions.pending(request, uid)
        if (Option.isNone(pending)) return messagePage(deps, 404, GONE)
        if (field(form, "decision") === "deny") return seeOther(yield* interactions.deny(request, uid))
        const tenantId = field(form, "workspace").slice(0, 100)
        const chosen = form.getAll("scope").map((s) => s.slice(0, 20))
        const user = signed.value.user
        const answer = yield* runOn(deps)(
          Effect.gen(function* () {
            const actor = yield* actorInWorkspace(
              {
                userId: user.id,
                email: user.email,
                sessionId: signed.value.session.id,
                ip: clientOf(request).ip
              },
              tenantId
            )
            const scopes = yield* authorizeApp(actor, {
              scopeSet: SHARING_SCOPE_SET,
              clientId: pending.value.clientId,
              clientName: pending.value.clientName,
              requestedScopes: pending.value.requestedScopes,
              chosenScopes: chosen
            })
            yield* rememberClientName(pending.value.clientId, pending.value.clientName)
            return { scopes }
          })
        ).pipe(
          Effect.map((ok) => ({ ok }) as const),
          Effect.catchTags({
            NotAMember: () => Effect.succeed({ refused: "Choose one of your workspaces." } as const),
            InvalidScopeList: () =>
              Effect.succeed({
                refused: "Choose at least one of the permissions the application asked for."
              } as const),
            ScopeNotAllowed: (e) =>
              Effect.succeed({
                refused: `In this workspace you may grant only: ${e.allowed.join(", ") || "nothing"}.`
              } as const)
          })
        )
        if ("refused" in answer)
          return yield* consentPage(
            deps,
            signed.value,
            pending.value,
            { tenantId, scopes: chosen, error: answer.refused },
            400
          )
        const next = yield* interactions.approve(request, uid, {
          accountId: `${tenantId}:${user.id}`,
          scopes: answer.ok.scopes
        })
        return seeOther(next)
      }).pipe(Effect.catch((error) => Effect.succeed(refusedPage(error))))
    )
  })
)
