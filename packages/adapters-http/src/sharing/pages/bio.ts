// The public bio page: mobile-first, one column, the profile (cover, avatar, name, headline, bio) and
// the current page's blocks: links as large buttons, headings, text, images, files to download, and
// visitor forms (a post-back form with a hidden honeypot and a signed time token; no script).
import type { BioBlock, BioPage, BioProfile } from "@folio/domain"
import { attr, type Html, html } from "../../shared/index.js"
import { previewTags, shell } from "./page.js"

/** The form's honeypot field: hidden from people, filled in by bots. */
export const HONEYPOT_FIELD = "website"
/** The form's signed time token field. */
export const FORM_TOKEN_FIELD = "form_token"

export interface BioFormState {
  readonly blockId: string
  readonly sent?: boolean
  readonly error?: string
  readonly values?: Readonly<Record<string, string>>
}

export interface BioPageInput {
  readonly title: string
  readonly url: string
  /** The public path of the bio page (`/s/{slug}`). */
  readonly path: string
  readonly theme: string | null
  readonly profile: BioProfile
  readonly pages: ReadonlyArray<BioPage>
  readonly page: BioPage
  /** The public path of a stored file of the page. */
  readonly mediaPath: (blobKey: string) => string
  /** A fresh signed time token for the forms. */
  readonly formToken: string
  readonly form?: BioFormState | undefined
  readonly noindex?: boolean | undefined
}

const formBlock = (input: BioPageInput, block: BioBlock & { readonly type: "form" }): Html => {
  const state = input.form?.blockId === block.id ? input.form : undefined
  const pageQuery = input.page.id === input.pages[0]?.id ? "" : `?page=${encodeURIComponent(input.page.slug)}`
  return html`<form class="bio-form" method="post"${attr("action", `${input.path}/forms/${encodeURIComponent(block.id)}${pageQuery}`)}${attr("id", `block-${block.id}`)}><h2>${block.title}</h2>${block.fields.map(
    (field) => {
      const id = `f-${block.id}-${field.name}`
      const value = state?.values?.[field.name] ?? ""
      const required = field.required ? html` required` : ""
      return html`<label${attr("for", id)}>${field.label}${field.required ? "" : html` <span class="headline">(optional)</span>`}</label>${
        field.kind === "textarea"
          ? html`<textarea${attr("id", id)}${attr("name", field.name)}${required} maxlength="2000">${value}</textarea>`
          : html`<input${attr("id", id)}${attr("name", field.name)}${attr("type", field.kind === "email" ? "email" : "text")}${attr("value", value)}${required}${attr("maxlength", field.kind === "email" ? "254" : "300")}${field.kind === "email" ? html` autocomplete="email"` : ""}>`
      }`
    }
  )}<div class="trap" aria-hidden="true"><label${attr("for", `trap-${block.id}`)}>Leave this empty</label><input${attr("id", `trap-${block.id}`)}${attr("name", HONEYPOT_FIELD)} tabindex="-1" autocomplete="off"></div><input type="hidden"${attr("name", FORM_TOKEN_FIELD)}${attr("value", input.formToken)}><button type="submit">${block.submitLabel}</button>${
    state?.sent === true ? html`<p class="sent" role="status">Thanks! Your message was sent.</p>` : ""
  }${state?.error === undefined ? "" : html`<p class="error" role="alert">${state.error}</p>`}</form>`
}

const blockHtml = (input: BioPageInput, block: BioBlock): Html => {
  switch (block.type) {
    case "link":
      return html`<a class="bio-link"${attr("href", block.url)} rel="noopener noreferrer">${
        block.thumbnail === null
          ? ""
          : html`<img${attr("src", input.mediaPath(block.thumbnail.blobKey))} alt="">`
      }<span>${block.title}</span></a>`
    case "heading":
      return html`<h2>${block.text}</h2>`
    case "text":
      return html`<p class="text">${block.text}</p>`
    case "image":
      return html`<figure><img${attr("src", input.mediaPath(block.file.blobKey))}${attr("alt", block.caption ?? "")} loading="lazy">${
        block.caption === null ? "" : html`<figcaption>${block.caption}</figcaption>`
      }</figure>`
    case "file":
      return html`<a class="bio-link"${attr("href", `${input.mediaPath(block.file.blobKey)}?download=1`)} download>${
        block.thumbnail === null
          ? ""
          : html`<img${attr("src", input.mediaPath(block.thumbnail.blobKey))} alt="">`
      }<span>${block.title ?? block.file.fileName}</span></a>`
    case "form":
      return formBlock(input, block)
  }
}

export const renderBioPage = (input: BioPageInput): Html => {
  const { profile } = input
  const name = profile.displayName ?? input.title
  return shell(
    {
      title: input.page.id === input.pages[0]?.id ? name : `${input.page.title} · ${name}`,
      noindex: input.noindex === true,
      head: previewTags({
        title: name,
        description: profile.headline ?? profile.bio ?? undefined,
        url: input.url,
        ...(profile.avatar === null
          ? {}
          : { imageUrl: new URL(input.mediaPath(profile.avatar.blobKey), input.url).toString() })
      })
    },
    html`<div class="bio"${attr("data-theme", input.theme ?? "light")}>${
      profile.cover === null
        ? ""
        : html`<img class="cover"${attr("src", input.mediaPath(profile.cover.blobKey))} alt="">`
    }${
      profile.avatar === null
        ? ""
        : html`<img class="avatar"${attr("src", input.mediaPath(profile.avatar.blobKey))}${attr("alt", name)}>`
    }<h1 class="name">${name}</h1>${profile.headline === null ? "" : html`<p class="headline">${profile.headline}</p>`}${
      profile.bio === null ? "" : html`<p class="about">${profile.bio}</p>`
    }${
      input.pages.length < 2
        ? ""
        : html`<nav aria-label="Pages">${input.pages.map(
            (p, i) =>
              html`<a${attr("href", i === 0 ? input.path : `${input.path}?page=${encodeURIComponent(p.slug)}`)}${p.id === input.page.id ? html` aria-current="page"` : ""}>${p.title}</a>`
          )}</nav>`
    }<ul class="blocks">${input.page.blocks.map((block) => html`<li>${blockHtml(input, block)}</li>`)}</ul></div>`
  )
}
