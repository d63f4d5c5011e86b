// The owner console's routes: `GET /`, sign-in (password and passkey), sign-out, invitations and
// password resets (signed out), and the signed-in pages under /console/. GETs render; posts check
// Origin and the CSRF token, run one use case and answer 303 to a GET (or a page showing a secret once).
import {
  acceptInvitation,
  beginPasskeyRegistration,
  beginPasskeySignIn,
  changePassword,
  changeRole,
  changeWorkspaceFeaturesAs,
  createKey,
  describeLink,
  describeReset,
  FEATURE_NAMES,
  finishPasskeyRegistration,
  finishPasskeySignIn,
  InvalidExpiry,
  inviteMember,
  isRole,
  leaveWorkspace,
  removeMember,
  removePasskey,
  removePassword,
  renameWorkspace,
  requestPasswordReset,
  resetPassword,
  revokeConnectedApp,
  revokeInvitation,
  revokeKey,
  revokeSession,
  setDisplayName,
  setMemberKeyScopes,
  setWorkspaceDisabledAs,
  signInWithPassword,
  signOut,
  signOutEverywhere,
  switchWorkspace
} from "@folio/domain"
import { Effect, Option } from "effect"
import { type Cookies, HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import { makeConsoleDeps } from "./deps.js"
import { CONSOLE_ASSET_PREFIX, serveConsoleAsset } from "./assets.js"
import {
  type Acting,
  actingOf,
  type ConsoleDeps,
  type ConsolePorts,
  preSessionOf,
  preSessionPostAllowed,
  runOn,
  type SignedIn,
  sessionPostAllowed,
  signedInChrome,
  signedInOf,
  signedOutChrome
} from "./context.js"
import { clearedSessionCookie, sessionCookie } from "./cookies.js"
import { refusalOf } from "./failures.js"
import type { PageChrome, Section } from "./layout.js"
import { renderInvitationPage, renderResetPasswordPage, renderResetRequestPage } from "./pages/links.js"
import { renderMessagePage } from "./pages/message.js"
import { renderSignInPage } from "./pages/sign-in.js"
import {
  clientOf,
  field,
  formOf,
  htmlPage,
  jsonAnswer,
  jsonOf,
  newNonce,
  pathOf,
  safeNext,
  seeOther
} from "./request.js"
import { noticeOf, SCOPE_SETS, type SectionExtras, sectionPage } from "./sections.js"

type Response = HttpServerResponse.HttpServerResponse

const FORM_EXPIRED = "This form has expired. Reload the page and try again."
const HOME = "/console/keys"

const signInLocation = (request: HttpServerRequest.HttpServerRequest) => {
  const url = pathOf(request)
  return `/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`
}

/** A page that only says something (refusals, expired forms, missing links). */
const messagePage = (
  chrome: PageChrome,
  status: number,
  message: Parameters<typeof renderMessagePage>[1],
  headers: Readonly<Record<string, string>> = {}
) => htmlPage(renderMessagePage(chrome, message), chrome.nonce, status, { headers })

const ROLE_REFUSED = {
  heading: "Not allowed",
  text: "Your role in this workspace does not allow this.",
  alert: true,
  link: { href: HOME, label: "Back to the console" }
}

/** The answer to a failure nothing more specific handles: a message page with its status. */
const failurePage = (chrome: PageChrome, error: unknown) => {
  const refusal = refusalOf(error)
  return Effect.as(
    refusal.status >= 500 ? Effect.logError("console request failed", refusal.tag) : Effect.void,
    refusal.tag === "NotAllowed"
      ? messagePage(chrome, 403, ROLE_REFUSED)
      : messagePage(chrome, refusal.status, {
          heading: refusal.status === 404 ? "Not found" : "This could not be done",
          text: refusal.message,
          alert: true,
          link: { href: HOME, label: "Back to the console" }
        })
  )
}

const bareChrome = (deps: ConsoleDeps, nonce: string, title: string): PageChrome =>
  signedOutChrome(deps, nonce, "", title)

/** A person who belongs to no workspace (removed from the last one): only their account is left. */
const noWorkspacePage = (deps: ConsoleDeps, acting: Acting, nonce: string) =>
  Effect.map(signedInChrome(deps, acting, nonce, "No workspace", null), (chrome) =>
    messagePage(chrome, 200, {
      heading: "No workspace",
      text: "You are not a member of any workspace. Ask an owner for an invitation.",
      link: { href: "/console/account", label: "Your account" }
    })
  )

// ---------------------------------------------------------------------------------------------
// Signed-in pages and posts

/**
 * A GET of a console section: signed out -> the sign-in page (coming back here after); otherwise the
 * section's page, or its refusal.
 */
const consoleGet = (deps: ConsoleDeps, section: Section) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const nonce = newNonce()
    const signed = yield* signedInOf(deps, request)
    if (Option.isNone(signed)) return seeOther(signInLocation(request))
    const acting = yield* actingOf(deps, request, signed.value)
    const query = pathOf(request).searchParams
    const extras: SectionExtras = {
      notice: noticeOf(query.get("notice")),
      before: query.get("before") ?? undefined
    }
    return yield* sectionPage(deps, acting, nonce, section, extras).pipe(
      Effect.map((page) => htmlPage(page, nonce)),
      Effect.catch((error) =>
        (error as { _tag?: string })._tag === "NoWorkspace"
          ? noWorkspacePage(deps, acting, nonce)
          : Effect.flatMap(signedInChrome(deps, acting, nonce, "Console", section), (chrome) =>
              failurePage(chrome, error)
            )
      )
    )
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

interface PostInput {
  readonly acting: Acting
  readonly form: URLSearchParams
  readonly request: HttpServerRequest.HttpServerRequest
  readonly nonce: string
  readonly params: Readonly<Record<string, string | undefined>>
}

/**
 * A signed-in form post: signed out -> sign-in; wrong origin or token -> 403 "form expired" with
 * nothing changed; else `act`, whose refusal re-renders the section with the error (a role refusal
 * is a 403 page).
 */
const consolePost = (
  deps: ConsoleDeps,
  section: Section,
  act: (input: PostInput) => Effect.Effect<Response, unknown, ConsolePorts>,
  options: { readonly needsWorkspace?: boolean } = {}
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const params = yield* HttpRouter.params
    const nonce = newNonce()
    const signed = yield* signedInOf(deps, request)
    if (Option.isNone(signed)) return seeOther("/sign-in")
    const form = yield* formOf(request)
    if (!sessionPostAllowed(deps, request, signed.value.session, field(form, "csrf"))) {
      return messagePage(bareChrome(deps, nonce, "Form expired"), 403, {
        heading: "Form expired",
        text: FORM_EXPIRED,
        alert: true,
        link: { href: `/console/${section}`, label: "Reload" }
      })
    }
    const acting = yield* actingOf(deps, request, signed.value)
    if (options.needsWorkspace !== false && acting.actor === null)
      return yield* noWorkspacePage(deps, acting, nonce)
    return yield* runOn(deps)(act({ acting, form, request, nonce, params })).pipe(
      Effect.catch((error) => {
        const refusal = refusalOf(error)
        if (refusal.tag === "NotAllowed" || refusal.status >= 500)
          return Effect.flatMap(signedInChrome(deps, acting, nonce, "Console", section), (chrome) =>
            failurePage(chrome, error)
          )
        return sectionPage(deps, acting, nonce, section, { error: refusal.message }).pipe(
          Effect.map((page) => htmlPage(page, nonce, refusal.status)),
          Effect.catch((again) =>
            Effect.flatMap(signedInChrome(deps, acting, nonce, "Console", section), (chrome) =>
              failurePage(chrome, again)
            )
          )
        )
      })
    )
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

/** The actor of a post that needs a workspace (consolePost has checked there is one). */
const actorOf = (acting: Acting) => {
  if (acting.actor === null) throw new Error("consolePost lets no workspace-less person through")
  return acting.actor
}

/** yyyy-mm-dd: the key works through that day (UTC); refused from the next day's start. */
const expiryOf = (text: string): Effect.Effect<Date | null, InvalidExpiry> => {
  if (text.trim() === "") return Effect.succeed(null)
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim())
  const day = match === null ? Number.NaN : Date.parse(`${text.trim()}T00:00:00Z`)
  return Number.isFinite(day) ? Effect.succeed(new Date(day + 86_400_000)) : Effect.fail(new InvalidExpiry())
}

const curlFor = (origin: string, service: string, key: string) =>
  service === "forms"
    ? `curl -H "Authorization: Bearer ${key}" ${origin}/forms/api/v1/forms`
    : `curl -H "Authorization: Bearer ${key}" ${origin}/share/api/v1/me`

const createKeyPost = (deps: ConsoleDeps) =>
  consolePost(deps, "keys", ({ acting, form, nonce }) => {
    const service = field(form, "service")
    const chosen = SCOPE_SETS.find((s) => s.set.service === service)
    const values = {
      name: field(form, "name"),
      service,
      scopes: form.getAll("scopes"),
      expiresAt: field(form, "expiresAt")
    }
    const refused = (error: unknown) => {
      const refusal = refusalOf(error)
      return refusal.tag === "NotAllowed" || refusal.status >= 500
        ? Effect.fail(error)
        : Effect.map(
            sectionPage(deps, acting, nonce, "keys", { error: refusal.message, keyValues: values }),
            (page) => htmlPage(page, nonce, refusal.status)
          )
    }
    return Effect.gen(function* () {
      if (chosen === undefined) {
        return yield* refused({ _tag: "InvalidService", message: "choose the service the key is for" })
      }
      const expiresAt = yield* expiryOf(values.expiresAt)
      const issued = yield* createKey(actorOf(acting), {
        scopeSet: chosen.set,
        name: values.name,
        // Only the chosen service's boxes count: the form shows both services' scopes.
        scopes: values.scopes.filter((s) => chosen.set.scopes.includes(s)),
        expiresAt
      })
      const page = yield* sectionPage(deps, acting, nonce, "keys", {
        created: {
          plaintext: issued.plaintext,
          record: issued.record,
          curl: curlFor(deps.origin, issued.record.service, issued.plaintext)
        }
      })
      return htmlPage(page, nonce, 201)
    }).pipe(Effect.catch(refused))
  })

const invitePost = (deps: ConsoleDeps) =>
  consolePost(deps, "members", ({ acting, form, nonce }) =>
    Effect.gen(function* () {
      const role = field(form, "role")
      if (!isRole(role)) return yield* Effect.fail({ _tag: "InvalidRole", message: "choose a role" })
      const made = yield* inviteMember(actorOf(acting), { email: field(form, "email"), role })
      const page = yield* sectionPage(deps, acting, nonce, "members", {
        invited: { email: made.invitation.email ?? "", mailed: made.mailed, url: made.url }
      })
      return htmlPage(page, nonce, 200)
    })
  )

const roleOf = (form: URLSearchParams) => {
  const role = field(form, "role")
  return isRole(role) ? Effect.succeed(role) : Effect.fail({ _tag: "InvalidRole", message: "choose a role" })
}

const checked = (form: URLSearchParams, name: string) => form.has(name)

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)

// ---------------------------------------------------------------------------------------------
// JSON endpoints (passkeys): the same checks, answered in JSON for the script.

const jsonRefusal = (error: unknown) => {
  const refusal = refusalOf(error)
  return jsonAnswer(
    { error: refusal.tag, message: refusal.message },
    refusal.status,
    [],
    refusal.retryAfterSeconds === undefined ? {} : { "retry-after": String(refusal.retryAfterSeconds) }
  )
}

const JSON_FORBIDDEN = jsonAnswer({ error: "Forbidden", message: FORM_EXPIRED }, 403)

const signedInJson = (
  deps: ConsoleDeps,
  act: (signed: SignedIn, body: Record<string, unknown>) => Effect.Effect<Response, unknown, ConsolePorts>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const signed = yield* signedInOf(deps, request)
    if (Option.isNone(signed)) return jsonAnswer({ error: "NotSignedIn", message: "not signed in" }, 401)
    if (!sessionPostAllowed(deps, request, signed.value.session, request.headers["x-csrf-token"] ?? ""))
      return JSON_FORBIDDEN
    const body = yield* jsonOf(request)
    return yield* runOn(deps)(act(signed.value, body))
  }).pipe(Effect.catch((error) => Effect.succeed(jsonRefusal(error))))

// ---------------------------------------------------------------------------------------------
// Signed out: sign-in, invitations, resets

const signInPage = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  view: Parameters<typeof renderSignInPage>[1],
  status = 200,
  headers: Readonly<Record<string, string>> = {}
) => {
  const nonce = newNonce()
  const pre = preSessionOf(deps, request)
  return htmlPage(renderSignInPage(signedOutChrome(deps, nonce, pre.csrf, "Sign in"), view), nonce, status, {
    headers,
    cookies: pre.cookies
  })
}

const formExpiredSignedOut = (deps: ConsoleDeps, back: string) => {
  const nonce = newNonce()
  return messagePage(bareChrome(deps, nonce, "Form expired"), 403, {
    heading: "Form expired",
    text: FORM_EXPIRED,
    alert: true,
    link: { href: back, label: "Reload" }
  })
}

/** Signing in: the old session (if any) ends and a new one starts, so a planted cookie never counts. */
const startedCookies = (deps: ConsoleDeps, token: string): ReadonlyArray<Cookies.Cookie> => [
  sessionCookie(deps.names, token)
]

const endPrevious = (deps: ConsoleDeps, request: HttpServerRequest.HttpServerRequest) =>
  Effect.flatMap(signedInOf(deps, request), (signed) =>
    Option.isSome(signed) ? runOn(deps)(signOut(signed.value.token)) : Effect.void
  )

const signInPost = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* formOf(request)
    if (!preSessionPostAllowed(deps, request, field(form, "csrf")))
      return formExpiredSignedOut(deps, "/sign-in")
    const next = safeNext(form.get("next"))
    const email = field(form, "email").slice(0, 320)
    const { ip, userAgent } = clientOf(request)
    return yield* runOn(deps)(
      signInWithPassword({ email, password: field(form, "password").slice(0, 1024), ip, userAgent })
    ).pipe(
      Effect.flatMap((started) =>
        Effect.as(endPrevious(deps, request), seeOther(next ?? HOME, startedCookies(deps, started.token)))
      ),
      Effect.catchTags({
        InvalidCredentials: (e) =>
          Effect.succeed(signInPage(deps, request, { email, next, error: e.message }, 401)),
        TooManyAttempts: (e) =>
          Effect.succeed(
            signInPage(deps, request, { email, next, error: e.message }, 429, {
              "retry-after": String(e.retryAfterSeconds)
            })
          )
      })
    )
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const passkeySignInOptions = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!preSessionPostAllowed(deps, request, request.headers["x-csrf-token"] ?? "")) return JSON_FORBIDDEN
    const begun = yield* runOn(deps)(beginPasskeySignIn())
    return jsonAnswer({ flowId: begun.flowId, options: begun.options })
  }).pipe(Effect.catch((error) => Effect.succeed(jsonRefusal(error))))

const passkeySignIn = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    if (!preSessionPostAllowed(deps, request, request.headers["x-csrf-token"] ?? "")) return JSON_FORBIDDEN
    const body = yield* jsonOf(request)
    const { ip, userAgent } = clientOf(request)
    const started = yield* runOn(deps)(
      finishPasskeySignIn({
        flowId: typeof body.flowId === "string" ? body.flowId : "",
        response: body.response,
        ip,
        userAgent
      })
    )
    yield* endPrevious(deps, request)
    const next = safeNext(typeof body.next === "string" ? body.next : undefined)
    return jsonAnswer({ redirect: next ?? HOME }, 200, startedCookies(deps, started.token))
  }).pipe(Effect.catch((error) => Effect.succeed(jsonRefusal(error))))

const signOutPost = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const signed = yield* signedInOf(deps, request)
    if (Option.isNone(signed)) return seeOther("/sign-in", [clearedSessionCookie(deps.names)])
    const form = yield* formOf(request)
    if (!sessionPostAllowed(deps, request, signed.value.session, field(form, "csrf")))
      return formExpiredSignedOut(deps, HOME)
    yield* runOn(deps)(signOut(signed.value.token))
    return seeOther("/sign-in?notice=signed-out", [clearedSessionCookie(deps.names)])
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const LINK_INVALID = {
  heading: "Link not valid",
  text: "This link is invalid or has expired. Ask for a new one.",
  alert: true,
  link: { href: "/sign-in", label: "Sign in" }
}

const invitationPage = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  token: string,
  extras: {
    readonly error?: string
    readonly values?: { email?: string; displayName?: string }
    readonly status?: number
  }
) =>
  Effect.gen(function* () {
    const nonce = newNonce()
    const signed = yield* signedInOf(deps, request)
    const link = yield* runOn(deps)(describeLink(token)).pipe(Effect.option)
    if (Option.isNone(link)) return messagePage(bareChrome(deps, nonce, "Link not valid"), 404, LINK_INVALID)
    const pre = preSessionOf(deps, request)
    const csrf = Option.isSome(signed) ? signed.value.session.csrfToken : pre.csrf
    const described = link.value
    const page = renderInvitationPage(signedOutChrome(deps, nonce, csrf, "Invitation"), {
      token,
      kind: described.kind,
      workspaceName: described.workspaceName,
      email: described.email,
      role: described.role,
      signedInAs: Option.isSome(signed) ? signed.value.user.email : null,
      signInFirst: Option.isNone(signed) && described.accountExists,
      ...(extras.values === undefined ? {} : { values: extras.values }),
      ...(extras.error === undefined ? {} : { error: extras.error })
    })
    return htmlPage(page, nonce, extras.status ?? 200, {
      cookies: Option.isSome(signed) ? [] : pre.cookies,
      headers: { "referrer-policy": "no-referrer" }
    })
  })

const tokenParam = Effect.map(HttpRouter.params, (p) => (p.token ?? "").slice(0, 200))

const invitationGet = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* invitationPage(deps, request, yield* tokenParam, {})
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const invitationPost = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = yield* tokenParam
    const form = yield* formOf(request)
    const signed = yield* signedInOf(deps, request)
    const allowed = Option.isSome(signed)
      ? sessionPostAllowed(deps, request, signed.value.session, field(form, "csrf"))
      : preSessionPostAllowed(deps, request, field(form, "csrf"))
    if (!allowed) return formExpiredSignedOut(deps, `/invitations/${encodeURIComponent(token)}`)
    const { ip, userAgent } = clientOf(request)
    const values = { email: field(form, "email"), displayName: field(form, "displayName") }
    return yield* runOn(deps)(
      acceptInvitation({
        token,
        signedIn: Option.isSome(signed) ? { userId: signed.value.user.id } : null,
        email: values.email,
        displayName: values.displayName,
        password: field(form, "password").slice(0, 1024),
        ip,
        userAgent
      })
    ).pipe(
      Effect.flatMap((accepted) =>
        accepted.started === null
          ? Effect.succeed(seeOther(`${HOME}?notice=joined`))
          : Effect.as(
              endPrevious(deps, request),
              seeOther(`${HOME}?notice=joined`, startedCookies(deps, accepted.started.token))
            )
      ),
      Effect.catch((error) => {
        const refusal = refusalOf(error)
        if (refusal.tag === "LinkInvalid")
          return Effect.succeed(
            messagePage(bareChrome(deps, newNonce(), "Link not valid"), 404, LINK_INVALID)
          )
        if (refusal.status >= 500) return Effect.fail(error)
        return invitationPage(deps, request, token, {
          error: refusal.message,
          values,
          status: refusal.status
        })
      })
    )
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const resetRequestPage = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  view: { readonly sent: boolean; readonly error?: string },
  status = 200,
  headers: Readonly<Record<string, string>> = {}
) => {
  const nonce = newNonce()
  const pre = preSessionOf(deps, request)
  return htmlPage(
    renderResetRequestPage(signedOutChrome(deps, nonce, pre.csrf, "Reset your password"), view),
    nonce,
    status,
    { cookies: pre.cookies, headers }
  )
}

const resetRequestPost = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const form = yield* formOf(request)
    if (!preSessionPostAllowed(deps, request, field(form, "csrf")))
      return formExpiredSignedOut(deps, "/reset-password")
    const { ip } = clientOf(request)
    // The same page whether or not the account exists, answered at once: the e-mail to a known
    // address is sent after the answer, so no answer takes longer for an account that exists.
    yield* Effect.forkDetach(
      runOn(deps)(requestPasswordReset({ email: field(form, "email").slice(0, 320), ip })).pipe(
        Effect.catchCause(() => Effect.logWarning("a password reset request could not be completed"))
      )
    )
    return resetRequestPage(deps, request, { sent: true })
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const resetPasswordPage = (
  deps: ConsoleDeps,
  request: HttpServerRequest.HttpServerRequest,
  token: string,
  error?: string,
  status = 200
) =>
  Effect.gen(function* () {
    const nonce = newNonce()
    const valid = yield* runOn(deps)(describeReset(token)).pipe(Effect.option)
    if (Option.isNone(valid)) return messagePage(bareChrome(deps, nonce, "Link not valid"), 404, LINK_INVALID)
    const pre = preSessionOf(deps, request)
    return htmlPage(
      renderResetPasswordPage(signedOutChrome(deps, nonce, pre.csrf, "Choose a new password"), {
        token,
        ...(error === undefined ? {} : { error })
      }),
      nonce,
      status,
      { cookies: pre.cookies, headers: { "referrer-policy": "no-referrer" } }
    )
  })

const resetPasswordGet = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    return yield* resetPasswordPage(deps, request, yield* tokenParam)
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const resetPasswordPost = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = yield* tokenParam
    const form = yield* formOf(request)
    if (!preSessionPostAllowed(deps, request, field(form, "csrf")))
      return formExpiredSignedOut(deps, `/reset-password/${encodeURIComponent(token)}`)
    return yield* runOn(deps)(
      resetPassword({ token, password: field(form, "password").slice(0, 1024) })
    ).pipe(
      Effect.as(seeOther("/sign-in?notice=password-reset", [clearedSessionCookie(deps.names)])),
      Effect.catch((error) => {
        const refusal = refusalOf(error)
        if (refusal.status >= 500) return Effect.fail(error)
        return resetPasswordPage(deps, request, token, refusal.message, refusal.status)
      })
    )
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

const rootGet = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const signed = yield* signedInOf(deps, request)
    return seeOther(Option.isSome(signed) ? HOME : "/sign-in")
  }).pipe(Effect.catch(() => Effect.succeed(seeOther("/sign-in"))))

const signInGet = (deps: ConsoleDeps) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const query = pathOf(request).searchParams
    const next = safeNext(query.get("next"))
    // Already signed in: straight on.
    const signed = yield* signedInOf(deps, request)
    if (Option.isSome(signed)) return seeOther(next ?? HOME)
    return signInPage(deps, request, { next, notice: noticeOf(query.get("notice")) })
  }).pipe(Effect.catch((error) => failurePage(bareChrome(deps, newNonce(), "Error"), error)))

// ---------------------------------------------------------------------------------------------

const idParam = (params: PostInput["params"], name: string) => (params[name] ?? "").slice(0, 100)

export const ConsoleRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const deps = yield* makeConsoleDeps
    const post = (
      path: `/${string}`,
      section: Section,
      act: Parameters<typeof consolePost>[2],
      options?: Parameters<typeof consolePost>[3]
    ) => router.add("POST", path, consolePost(deps, section, act, options))

    yield* router.add("GET", `${CONSOLE_ASSET_PREFIX}*`, serveConsoleAsset(deps.assets))
    yield* router.add("GET", "/", rootGet(deps))
    yield* router.add("GET", "/console", Effect.succeed(seeOther(HOME)))
    yield* router.add("GET", "/sign-in", signInGet(deps))
    yield* router.add("POST", "/sign-in", signInPost(deps))
    yield* router.add("POST", "/sign-in/passkey/options", passkeySignInOptions(deps))
    yield* router.add("POST", "/sign-in/passkey", passkeySignIn(deps))
    yield* router.add("POST", "/sign-out", signOutPost(deps))
    yield* router.add("GET", "/invitations/:token", invitationGet(deps))
    yield* router.add("POST", "/invitations/:token", invitationPost(deps))
    yield* router.add(
      "GET",
      "/reset-password",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        return resetRequestPage(deps, request, { sent: false })
      })
    )
    yield* router.add("POST", "/reset-password", resetRequestPost(deps))
    yield* router.add("GET", "/reset-password/:token", resetPasswordGet(deps))
    yield* router.add("POST", "/reset-password/:token", resetPasswordPost(deps))

    for (const section of ["keys", "apps", "members", "settings", "audit", "account"] as const)
      yield* router.add("GET", `/console/${section}`, consoleGet(deps, section))

    // API keys
    yield* router.add("POST", "/console/keys", createKeyPost(deps))
    yield* post("/console/keys/:id/revoke", "keys", ({ acting, params }) =>
      Effect.as(revokeKey(actorOf(acting), idParam(params, "id")), seeOther(`${HOME}?notice=key-revoked`))
    )

    // Connected apps (OAuth grants)
    yield* post("/console/apps/:id/revoke", "apps", ({ acting, params }) =>
      Effect.as(
        revokeConnectedApp(actorOf(acting), idParam(params, "id")),
        seeOther("/console/apps?notice=app-revoked")
      )
    )

    // Members
    yield* router.add("POST", "/console/members/invite", invitePost(deps))
    yield* post("/console/members/:userId/role", "members", ({ acting, params, form }) =>
      Effect.flatMap(roleOf(form), (role) =>
        Effect.as(
          changeRole(actorOf(acting), idParam(params, "userId"), role),
          seeOther("/console/members?notice=role-changed")
        )
      )
    )
    yield* post("/console/members/:userId/remove", "members", ({ acting, params }) =>
      Effect.as(
        removeMember(actorOf(acting), idParam(params, "userId")),
        seeOther("/console/members?notice=member-removed")
      )
    )
    yield* post("/console/invitations/:id/revoke", "members", ({ acting, params }) =>
      Effect.as(
        revokeInvitation(actorOf(acting), idParam(params, "id")),
        seeOther("/console/members?notice=invitation-revoked")
      )
    )
    yield* post("/console/leave", "members", ({ acting }) =>
      Effect.as(leaveWorkspace(actorOf(acting)), seeOther(`${HOME}?notice=left-workspace`))
    )

    // Settings
    yield* post("/console/settings/name", "settings", ({ acting, form }) =>
      Effect.as(
        renameWorkspace(actorOf(acting), field(form, "name")),
        seeOther("/console/settings?notice=settings-saved")
      )
    )
    yield* post("/console/settings/features", "settings", ({ acting, form }) =>
      Effect.as(
        changeWorkspaceFeaturesAs(actorOf(acting), {
          enable: FEATURE_NAMES.filter((f) => checked(form, snake(f))),
          disable: FEATURE_NAMES.filter((f) => !checked(form, snake(f)))
        }),
        seeOther("/console/settings?notice=settings-saved")
      )
    )
    yield* post("/console/settings/member-scopes", "settings", ({ acting, form }) =>
      Effect.as(
        Effect.forEach(
          SCOPE_SETS,
          ({ set }) => setMemberKeyScopes(actorOf(acting), set, form.getAll(set.service)),
          {
            discard: true
          }
        ),
        seeOther("/console/settings?notice=settings-saved")
      )
    )
    yield* post("/console/settings/disable", "settings", ({ acting }) =>
      Effect.as(
        setWorkspaceDisabledAs(actorOf(acting), true),
        seeOther("/console/settings?notice=workspace-disabled")
      )
    )
    yield* post("/console/settings/enable", "settings", ({ acting }) =>
      Effect.as(
        setWorkspaceDisabledAs(actorOf(acting), false),
        seeOther("/console/settings?notice=workspace-enabled")
      )
    )

    // Workspace switch
    yield* post(
      "/console/workspace",
      "keys",
      ({ acting, form }) =>
        Effect.as(
          switchWorkspace(acting.session, field(form, "tenantId").slice(0, 100)),
          seeOther(`${HOME}?notice=workspace-switched`)
        ),
      { needsWorkspace: false }
    )

    // Account
    const account = { needsWorkspace: false }
    yield* post(
      "/console/account/name",
      "account",
      ({ acting, form }) =>
        Effect.as(
          setDisplayName(acting.user.id, field(form, "displayName")),
          seeOther("/console/account?notice=name-saved")
        ),
      account
    )
    yield* post(
      "/console/account/password",
      "account",
      ({ acting, form }) =>
        Effect.as(
          changePassword(
            acting.user.id,
            {
              current: acting.user.passwordHash === null ? null : field(form, "current").slice(0, 1024),
              next: field(form, "password").slice(0, 1024)
            },
            acting.session.id,
            acting.ip
          ),
          seeOther("/console/account?notice=password-changed")
        ),
      account
    )
    yield* post(
      "/console/account/password/remove",
      "account",
      ({ acting }) =>
        Effect.as(
          removePassword(acting.user.id, acting.ip),
          seeOther("/console/account?notice=password-removed")
        ),
      account
    )
    yield* post(
      "/console/account/passkeys/:id/remove",
      "account",
      ({ acting, params }) =>
        Effect.as(
          removePasskey(acting.user.id, idParam(params, "id"), acting.ip),
          seeOther("/console/account?notice=passkey-removed")
        ),
      account
    )
    yield* post(
      "/console/account/sessions/revoke-others",
      "account",
      ({ acting }) =>
        Effect.as(
          signOutEverywhere(acting.user.id, acting.session.id),
          seeOther("/console/account?notice=sessions-revoked")
        ),
      account
    )
    yield* post(
      "/console/account/sessions/:id/revoke",
      "account",
      ({ acting, params }) =>
        Effect.as(
          revokeSession(acting.user.id, idParam(params, "id")),
          seeOther("/console/account?notice=session-revoked")
        ),
      account
    )
    yield* router.add(
      "POST",
      "/console/account/passkeys/options",
      signedInJson(deps, (signed) =>
        Effect.map(beginPasskeyRegistration(signed.user.id), (begun) =>
          jsonAnswer({ flowId: begun.flowId, options: begun.options })
        )
      )
    )
    yield* router.add(
      "POST",
      "/console/account/passkeys",
      signedInJson(deps, (signed, body) =>
        Effect.map(
          finishPasskeyRegistration(
            signed.user.id,
            {
              flowId: typeof body.flowId === "string" ? body.flowId : "",
              response: body.response,
              name: typeof body.name === "string" ? body.name.slice(0, 200) : ""
            },
            signed.ip
          ),
          (passkey) => jsonAnswer({ id: passkey.id, name: passkey.name }, 201)
        )
      )
    )
  })
)
