// The withdrawal link's pages: GET /f/{slug}/withdraw/{id}/{mac} asks to confirm (a plain HTML form,
// no script), POST deletes the response and its files and says so. Any link that opens nothing
// answers the same 404 page, so the answer never tells whether a response existed.
import { type FormSettings, Respondent, type WithdrawalLinkInvalid, withdrawalPath } from "@folio/domain"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest } from "effect/http"
import { BlobSigningSecret } from "../../blobs/Http.js"
import { type Html, html } from "../../shared/index.js"
import type { LoadedAssets } from "./assets.js"
import { htmlResponse } from "./html-response.js"
import { shell, stringsFor } from "./page.js"

const page = (
  assets: LoadedAssets,
  nonce: string,
  title: string,
  settings: FormSettings | undefined,
  body: Html
): Html =>
  shell(
    { nonce, assets: assets.urls, locale: settings?.locale ?? "en", title, settings },
    html`<section class="message withdrawal">${body}</section>`
  )

const newNonce = () => crypto.randomUUID().replaceAll("-", "")

/** The one answer of every link that opens nothing: not valid, already used, or never issued. */
const invalidPage = (request: HttpServerRequest.HttpServerRequest, assets: LoadedAssets, nonce: string) => {
  const strings = stringsFor("en")
  return htmlResponse(
    request,
    page(
      assets,
      nonce,
      strings.withdrawInvalidTitle,
      undefined,
      html`<h1>${strings.withdrawInvalidTitle}</h1><p>${strings.withdrawInvalidBody}</p>`
    ),
    nonce,
    404
  )
}

/**
 * A post from another site is refused: the link is the capability, but a page elsewhere that learnt
 * it still may not make the respondent's browser delete the response unseen.
 */
const crossSite = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["sec-fetch-site"] === "cross-site"

const params = Effect.map(HttpRouter.params, (p) => ({
  slug: p.slug ?? "",
  id: p.id ?? "",
  mac: p.mac ?? ""
}))

const orInvalid = <A, R>(
  effect: Effect.Effect<A, WithdrawalLinkInvalid | { readonly _tag: "StorageError" }, R>
) =>
  effect.pipe(
    Effect.map((a) => ({ ok: true as const, value: a })),
    Effect.catchTag("WithdrawalLinkInvalid", () => Effect.succeed({ ok: false as const }))
  )

export const withdrawalPage = (assets: LoadedAssets) =>
  Effect.gen(function* () {
    const respondent = yield* Respondent
    const secret = yield* BlobSigningSecret
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { slug, id, mac } = yield* params
      const nonce = newNonce()
      const opened = yield* orInvalid(respondent.openWithdrawal(secret, slug, id, mac))
      if (!opened.ok) return invalidPage(request, assets, nonce)
      const { form, settings } = opened.value
      const strings = stringsFor(settings.locale)
      const action = withdrawalPath(slug, id, mac)
      return htmlResponse(
        request,
        page(
          assets,
          nonce,
          strings.withdrawTitle,
          settings,
          html`<h1>${strings.withdrawTitle}</h1><p class="form-name">${form.title}</p><p>${strings.withdrawBody}</p><form method="post" action="${action}"><button type="submit" class="button primary withdraw-confirm">${strings.withdrawConfirm}</button></form>`
        ),
        nonce,
        200,
        { "referrer-policy": "no-referrer" }
      )
    })
  })

export const withdrawalPost = (assets: LoadedAssets) =>
  Effect.gen(function* () {
    const respondent = yield* Respondent
    const secret = yield* BlobSigningSecret
    return Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const { slug, id, mac } = yield* params
      const nonce = newNonce()
      if (crossSite(request)) return invalidPage(request, assets, nonce)
      const withdrawn = yield* orInvalid(respondent.withdraw(secret, slug, id, mac))
      if (!withdrawn.ok) return invalidPage(request, assets, nonce)
      const { settings } = withdrawn.value
      const strings = stringsFor(settings.locale)
      return htmlResponse(
        request,
        page(
          assets,
          nonce,
          strings.withdrawnTitle,
          settings,
          html`<h1>${strings.withdrawnTitle}</h1><p>${strings.withdrawnBody}</p>`
        ),
        nonce,
        200,
        { "referrer-policy": "no-referrer" }
      )
    })
  })
