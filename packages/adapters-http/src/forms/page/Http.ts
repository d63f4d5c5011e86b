// The public form page's routes: GET /f/{slug} (the HTML page of a classic form, or the chat page of
// an interview form), the author's sandboxed custom script, and the page's hashed, precompressed
// scripts and stylesheet under /f/_assets/.
import { randomBytes } from "node:crypto"
import {
  encodeFormDefinition,
  InterviewRespondent,
  interviewLocale,
  interviewTitle,
  type Issue,
  type PublishedForm,
  publicImageUrl,
  quizResultsOf,
  RateLimitStore,
  Respondent,
  spendRespondentBudget,
  withdrawalLinkFor
} from "@folio/domain"
import { BlobSigningSecret } from "../../blobs/Http.js"
import { Effect, type Result } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { clientIp } from "../../shared/index.js"
import { hasContinuityCookie, requestedLocale } from "../respondent/continuity.js"
import { ASSET_PREFIX, type LoadedAssets, loadPageAssets, serveStaticAsset } from "./assets.js"
import { htmlResponse } from "./html-response.js"
import { interviewPageHeaders } from "./interview-experience.js"
import { renderInterviewPage } from "./interview-page.js"
import { interviewPost } from "./interview-post.js"
import type { Html } from "../../shared/index.js"
import {
  type FormPageInput,
  type PublishedPage,
  questionsFor,
  renderClosedPage,
  renderFormPage,
  renderMessagePage,
  renderNotFoundPage
} from "./page.js"
import type { PostedField } from "./form-post.js"
import { type SubmitError, type SubmitOutcome, submitPostedForm } from "./submit.js"
import { FormsErrors } from "../errors.js"
import { withdrawalPage, withdrawalPost } from "./withdrawal.js"

export const customScriptUrl = (slug: string): string => `/f/${encodeURIComponent(slug)}/custom-script`

const newNonce = () => randomBytes(18).toString("base64")

/** A bounded memo: at most `size` entries, the oldest dropped first. */
const boundedMemo = <A>(size: number) => {
  const entries = new Map<string, A>()
  return (key: string, make: () => A): A => {
    const hit = entries.get(key)
    if (hit !== undefined) return hit
    const fresh = make()
    if (entries.size >= size) {
      const oldest = entries.keys().next()
      if (oldest.done !== true) entries.delete(oldest.value)
    }
    entries.set(key, fresh)
    return fresh
  }
}

/** A published version never changes: its definition is encoded for the page's data once. */
const encodedDefinitions = boundedMemo<unknown>(256)

export const publishedPage = (slug: string, published: PublishedForm): PublishedPage => ({
  slug,
  formId: published.form.id,
  formVersionId: published.version.id,
  title: published.form.title,
  definition: published.definition,
  encodedDefinition: encodedDefinitions(published.version.id, () =>
    encodeFormDefinition(published.definition)
  ),
  settings: published.settings
})

/**
 * Blank questions by version, slug and the settings that shape them: every visitor of a version sees
 * the same, so it is rendered once.
 */
const questions = boundedMemo<Html>(256)
const cachedQuestions = (page: PublishedPage): Html => {
  const s = page.settings
  return questions(
    `${page.formVersionId}|${page.slug}|${s.locale}|${s.renderMode}|${s.document.showNumbers}`,
    () => questionsFor(page, (k) => publicImageUrl(page.slug, k))
  )
}

/** What the form page needs to render beside the published form. */
export const pageInput = (
  assets: LoadedAssets,
  slug: string,
  published: PublishedForm,
  request: HttpServerRequest.HttpServerRequest,
  nonce: string,
  rest: Pick<FormPageInput, "state"> & Partial<FormPageInput>
): FormPageInput => {
  const query = new URL(request.url, "http://local").searchParams
  const page = publishedPage(slug, published)
  return {
    page,
    questions: cachedQuestions(page),
    mayResume: hasContinuityCookie(request),
    nonce,
    assets: assets.urls,
    imageUrl: (key) => publicImageUrl(slug, key),
    params: [...query.entries()].filter(([k]) => k.length <= 64).slice(0, 50),
    customScriptUrl:
      (published.settings.customScript ?? "").trim() === "" ? undefined : customScriptUrl(slug),
    ...rest
  }
}

/** 410: the form exists but takes no responses now; the author's message when there is one. */
const closedPage = (
  request: HttpServerRequest.HttpServerRequest,
  assets: LoadedAssets,
  nonce: string,
  published: Pick<PublishedForm, "settings"> & { readonly form: { readonly title: string } },
  message: string | undefined
) =>
  htmlResponse(
    request,
    renderClosedPage({
      nonce,
      assets: assets.urls,
      title: published.form.title,
      settings: published.settings,
      message
    }),
    nonce,
    410
  )

const tooManyRequests = (
  request: HttpServerRequest.HttpServerRequest,
  assets: LoadedAssets,
  retryAfter: number
) => {
  const nonce = newNonce()
  return htmlResponse(request, renderNotFoundPage({ nonce, assets: assets.urls }), nonce, 429, {
    "retry-after": String(retryAfter)
  })
}

/** Runs `page` within the respondent budget; over it, a 429 page. */
const budgeted = <E, R>(
  assets: LoadedAssets,
  limits: RateLimitStore["Service"],
  page: (
    request: HttpServerRequest.HttpServerRequest
  ) => Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>
) =>
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const spent = yield* Effect.result(spendRespondentBudget(limits, clientIp(request)))
    if (spent._tag === "Failure") {
      const e = spent.failure
      return tooManyRequests(request, assets, e._tag === "RateLimited" ? e.retryAfterSeconds : 60)
    }
    return yield* page(request)
  })

/**
 * The interview form at `slug` as its chat page (closed: the closed page), or undefined when there
 * is no published interview there. The page speaks the locale the query or the browser asks for,
 * among the interview's own.
 */
const interviewPage = (
  interviews: InterviewRespondent["Service"],
  assets: LoadedAssets,
  request: HttpServerRequest.HttpServerRequest,
  slug: string,
  nonce: string
) =>
  Effect.gen(function* () {
    const found = yield* Effect.result(interviews.publicInterview(slug))
    if (found._tag === "Failure") return undefined
    const { published, closed } = found.success
    if (closed !== undefined) {
      const { settings } = published
      const form = { title: interviewTitle(published) }
      return closedPage(request, assets, nonce, { form, settings }, settings.submission.closedMessage)
    }
    const query = new URL(request.url, "http://local").searchParams
    const locale = interviewLocale(published.definition, requestedLocale(request))
    return htmlResponse(
      request,
      renderInterviewPage({
        slug,
        published,
        locale,
        nonce,
        assets: assets.urls,
        imageUrl: (key) => publicImageUrl(slug, key),
        mayResume: hasContinuityCookie(request),
        params: [...query.entries()].filter(([k]) => k.length <= 64).slice(0, 50)
      }),
      nonce,
      200,
      interviewPageHeaders(published.definition, nonce)
    )
  })

export const formPage = (assets: LoadedAssets) =>
  Effect.gen(function* () {
    const respondent = yield* Respondent
    const interviews = yield* InterviewRespondent
    const limits = yield* RateLimitStore
    return budgeted(assets, limits, (request) =>
      Effect.gen(function* () {
        const slug = (yield* HttpRouter.params).slug ?? ""
        const nonce = newNonce()
        const found = yield* Effect.result(respondent.publicForm(slug))
        if (found._tag === "Failure") {
          // Not a classic form: perhaps an interview, which has a chat page of its own.
          const interview = yield* interviewPage(interviews, assets, request, slug, nonce)
          if (interview !== undefined) return interview
          return htmlResponse(request, renderNotFoundPage({ nonce, assets: assets.urls }), nonce, 404)
        }
        const { published, closed } = found.success
        if (closed !== undefined) {
          return closedPage(request, assets, nonce, published, published.settings.submission.closedMessage)
        }
        return htmlResponse(
          request,
          renderFormPage(pageInput(assets, slug, published, request, nonce, { state: { kind: "open" } })),
          nonce
        )
      })
    )
  })

/** Tells the page the frame listens, on load and whenever the page asks (it may boot first). */
const FRAME_READY =
  'parent.postMessage({folio:"ready"},"*");addEventListener("message",function(e){if(e.source===parent&&e.data&&e.data.folio==="ping")parent.postMessage({folio:"ready"},"*")})'

/**
 * The author's custom script, alone in a document the page frames with `sandbox="allow-scripts"`:
 * an opaque origin with no access to the page, its answers, cookies or storage. It hears only the
 * page's lifecycle events (view, start, step, complete) through postMessage.
 */
const customScript = Effect.gen(function* () {
  const respondent = yield* Respondent
  const limits = yield* RateLimitStore
  return Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const slug = (yield* HttpRouter.params).slug ?? ""
    const spent = yield* Effect.result(spendRespondentBudget(limits, clientIp(request)))
    const found = spent._tag === "Failure" ? undefined : yield* Effect.result(respondent.publicForm(slug))
    const script = found?._tag === "Success" ? (found.success.published.settings.customScript ?? "") : ""
    if (script.trim() === "") return HttpServerResponse.empty({ status: 404 })
    // The script is the author's own code; `</script` inside it cannot end the element early.
    // In the body, so the script has a document to work with; the ready signal comes after it, once
    // its listeners are registered.
    const body = `<!doctype html><html><head><meta charset="utf-8"><title>custom script</title></head><body><script>${script.replace(/<\/(script)/gi, "<\\/$1")}</script><script>${FRAME_READY}</script></body></html>`
    return HttpServerResponse.text(body, {
      contentType: "text/html; charset=utf-8",
      headers: {
        "content-security-policy":
          "sandbox allow-scripts; default-src 'none'; script-src * 'unsafe-inline'; img-src * data:; connect-src *; style-src * 'unsafe-inline'; frame-ancestors 'self'",
        "x-content-type-options": "nosniff",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer"
      }
    })
  })
})

const valuesOf = (fields: ReadonlyArray<PostedField>): ReadonlyMap<string, ReadonlyArray<string>> => {
  const out = new Map<string, Array<string>>()
  for (const [name, value] of fields) out.set(name, [...(out.get(name) ?? []), value])
  return out
}

/** The URL parameters an earlier page carried in `_param.*` fields, to carry on. */
const paramsIn = (fields: ReadonlyArray<PostedField>): ReadonlyArray<readonly [string, string]> =>
  fields.flatMap(([name, value]) => (name.startsWith("_param.") ? [[name.slice(7), value] as const] : []))

const errorsOf = (issues: ReadonlyArray<Issue>): ReadonlyMap<string, string> => {
  const out = new Map<string, string>()
  for (const issue of issues) {
    const id = issue.path[0] === "answers" ? String(issue.path[1] ?? "") : ""
    if (id !== "" && !out.has(id)) out.set(id, issue.rule)
  }
  return out
}

/** A client that asked for JSON (not a browser's form post) gets the outcome as data. */
const wantsJson = (request: HttpServerRequest.HttpServerRequest) => {
  const accept = request.headers.accept ?? ""
  return accept.includes("application/json") && !accept.includes("text/html")
}

const jsonOutcome = (submitted: Result.Result<SubmitOutcome, SubmitError>, secret: string, slug: string) =>
  Effect.gen(function* () {
    if (submitted._tag === "Failure") return yield* FormsErrors.respond(submitted.failure)
    const outcome = submitted.success
    if (outcome._tag !== "Completed") return HttpServerResponse.jsonUnsafe({ data: outcome })
    const r = outcome.response
    const settings = yield* publishedSettings(slug)
    const withdrawalPath =
      settings === undefined ? undefined : withdrawalLinkFor(secret, { id: r.formId, slug }, settings, r.id)
    return HttpServerResponse.jsonUnsafe({
      data: {
        _tag: outcome._tag,
        responseId: r.id,
        status: r.status,
        answers: r.answers,
        continuityToken: outcome.continuityToken,
        quizzes: quizResultsOf(r.meta),
        ...(withdrawalPath === undefined ? {} : { withdrawalPath })
      }
    })
  })

/** The settings of the classic form published at `slug`, if there is one. */
const publishedSettings = (slug: string) =>
  Effect.flatMap(Effect.service(Respondent), (respondent) =>
    respondent.publicForm(slug).pipe(
      Effect.map((found) => found.published.settings),
      Effect.orElseSucceed(() => undefined)
    )
  )

/**
 * POST /f/{slug}: the page's JavaScript-off submission. The answer is a page again: the completion
 * screen, the form refilled with each refusal at its question, the repeat confirmation, or why not.
 */
const formPost = (assets: LoadedAssets) =>
  Effect.gen(function* () {
    const respondent = yield* Respondent
    const secret = yield* BlobSigningSecret
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const slug = (yield* HttpRouter.params).slug ?? ""
      const nonce = newNonce()
      const message = (status: number, heading: string, text: string, settings?: PublishedForm["settings"]) =>
        htmlResponse(
          request,
          renderMessagePage({ nonce, assets: assets.urls, heading, message: text, settings }),
          nonce,
          status
        )
      const submitted = yield* Effect.result(submitPostedForm(slug, request))
      if (wantsJson(request)) return yield* jsonOutcome(submitted, secret, slug)
      if (submitted._tag === "Failure") {
        const e = submitted.failure
        switch (e._tag) {
          case "PublishedFormNotFound": {
            // Perhaps an interview's page posting without JavaScript.
            const interview = yield* Effect.result(interviewPost(slug, request))
            if (interview._tag === "Failure") {
              const f = interview.failure
              if (f._tag === "RequestTooLarge")
                return message(413, "Too large", "The message sent is larger than this interview accepts.")
              return message(400, "Not sent", "Your message could not be sent. Please go back and try again.")
            }
            const outcome = interview.success
            if (outcome === undefined)
              return htmlResponse(request, renderNotFoundPage({ nonce, assets: assets.urls }), nonce, 404)
            const { published } = outcome
            if (outcome._tag === "Closed")
              return closedPage(
                request,
                assets,
                nonce,
                { form: { title: interviewTitle(published) }, settings: published.settings },
                published.settings.submission.closedMessage
              )
            return htmlResponse(
              request,
              renderInterviewPage({
                slug,
                published,
                locale: outcome.locale,
                nonce,
                assets: assets.urls,
                imageUrl: (key) => publicImageUrl(slug, key),
                mayResume: false,
                params: outcome.params ?? [],
                state: outcome.state,
                notice: outcome.notice,
                confirmRepeat: outcome.confirmRepeat === true,
                consentError: outcome.consentError,
                withdrawalPath:
                  outcome.state?.done === true
                    ? withdrawalLinkFor(secret, published.form, published.settings, outcome.state.responseId)
                    : undefined
              }),
              nonce,
              outcome.status,
              interviewPageHeaders(published.definition, nonce)
            )
          }
          case "RateLimited":
            return tooManyRequests(request, assets, e.retryAfterSeconds)
          case "RequestTooLarge":
            return message(413, "Too large", "The files or answers sent are larger than this form accepts.")
          case "StorageError":
            return message(503, "Not saved", "Your answers could not be saved. Please go back and try again.")
          default:
            return message(
              400,
              "Not submitted",
              "Your answers could not be submitted. Please go back and try again."
            )
        }
      }
      const outcome = submitted.success
      const found = yield* Effect.result(respondent.publicForm(slug))
      if (found._tag === "Failure")
        return htmlResponse(request, renderNotFoundPage({ nonce, assets: assets.urls }), nonce, 404)
      const { published } = found.success
      const input = (rest: Pick<FormPageInput, "state"> & Partial<FormPageInput>) =>
        pageInput(assets, slug, published, request, nonce, rest)
      switch (outcome._tag) {
        case "Completed": {
          const edit =
            published.settings.submission.allowResponseEditing === true
              ? { responseId: outcome.response.id, token: outcome.token }
              : undefined
          const quizzes = quizResultsOf(outcome.response.meta)
          return htmlResponse(
            request,
            renderFormPage(
              input({
                state: { kind: "completed", edit, quizzes },
                withdrawalPath: withdrawalLinkFor(
                  secret,
                  published.form,
                  published.settings,
                  outcome.response.id
                )
              })
            ),
            nonce
          )
        }
        case "Editing":
          return htmlResponse(
            request,
            renderFormPage(
              input({
                state: { kind: "editing", responseId: outcome.responseId, token: outcome.token },
                params: paramsIn(outcome.fields),
                values: valuesOf(outcome.fields),
                uploaded: new Map(Object.entries(outcome.uploaded))
              })
            ),
            nonce
          )
        case "ConsentRequired":
          return htmlResponse(
            request,
            renderFormPage(
              input({
                state: { kind: "open" },
                params: paramsIn(outcome.fields),
                values: valuesOf(outcome.fields),
                consentError: true
              })
            ),
            nonce,
            422
          )
        case "Invalid":
          return htmlResponse(
            request,
            renderFormPage(
              input({
                state: { kind: "invalid", responseId: outcome.responseId, token: outcome.token },
                params: paramsIn(outcome.fields),
                values: valuesOf(outcome.fields),
                errors: errorsOf(outcome.issues),
                uploaded: new Map(Object.entries(outcome.uploaded))
              })
            ),
            nonce,
            422
          )
        case "RepeatNeedsConfirmation":
          return htmlResponse(
            request,
            renderFormPage(
              input({
                state: { kind: "confirmRepeat" },
                params: paramsIn(outcome.fields),
                values: valuesOf(outcome.fields)
              })
            ),
            nonce,
            409
          )
        case "Closed":
          return closedPage(request, assets, nonce, published, outcome.message ?? undefined)
      }
    })
  })

export const FormPageRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const assets = loadPageAssets()
    yield* router.add("GET", `${ASSET_PREFIX}*`, serveStaticAsset(assets.byPath))
    yield* router.add("GET", "/f/:slug", yield* formPage(assets))
    yield* router.add("POST", "/f/:slug", yield* formPost(assets))
    yield* router.add("GET", "/f/:slug/custom-script", yield* customScript)
    yield* router.add("GET", "/f/:slug/withdraw/:id/:mac", yield* withdrawalPage(assets))
    yield* router.add("POST", "/f/:slug/withdraw/:id/:mac", yield* withdrawalPost(assets))
  })
)
