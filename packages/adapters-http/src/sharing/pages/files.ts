// The public pages of uploads: a file's page (its name, type and size, and a download button) and an
// image's (the image itself, and a download button). The bytes are never on the page's own URL: they
// come from `/content` (inline only for types that cannot run script) and `/download` (always an
// attachment), each with nosniff and a sandboxing CSP.
import { formatBytes } from "@folio/domain"
import { attr, type Html, html } from "../../shared/index.js"
import { previewTags, shell } from "./page.js"

export interface FilePageInput {
  readonly kind: "file" | "image"
  readonly title: string
  readonly description?: string | undefined
  readonly fileName: string
  readonly contentType: string
  readonly size: number
  /** The page's public URL. */
  readonly url: string
  /** Where the bytes are shown from (same origin, path only) and downloaded from. */
  readonly contentPath: string
  readonly downloadPath: string
  readonly noindex?: boolean | undefined
}

export const renderFilePage = (input: FilePageInput): Html =>
  shell(
    {
      title: input.title,
      noindex: input.noindex === true,
      head: previewTags({
        title: input.title,
        description: input.description,
        url: input.url,
        ...(input.kind === "image" ? { imageUrl: `${input.url}/content` } : {})
      })
    },
    html`<article><h1 class="page-title">${input.title}</h1>${input.description?.trim() ? html`<p class="lead">${input.description}</p>` : ""}${
      input.kind === "image"
        ? html`<img class="shown"${attr("src", input.contentPath)}${attr("alt", input.description?.trim() || input.title)}>`
        : ""
    }<div class="file-card"><strong>${input.fileName}</strong><p class="meta">${input.contentType} · ${formatBytes(input.size)}</p><a class="btn"${attr("href", input.downloadPath)} download>Download</a></div></article>`
  )
