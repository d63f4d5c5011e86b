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

export interface GalleryItem {
  readonly kind: "file" | "image"
  /** The display name, else the file name. */
  readonly name: string
  readonly caption: string | null
  readonly contentType: string
  readonly size: number
  readonly contentPath: string
  readonly downloadPath: string
  /** A 320 px thumbnail (an image) or card (a file): what the grid shows. */
  readonly previewPath: string
}

/** A collection's public page: its items in order, images shown, every item downloadable. */
export const renderGalleryPage = (input: {
  readonly title: string
  readonly description?: string | undefined
  readonly url: string
  readonly items: ReadonlyArray<GalleryItem>
  readonly noindex?: boolean | undefined
}): Html => {
  const firstImage = input.items.find((i) => i.kind === "image")
  return shell(
    {
      title: input.title,
      noindex: input.noindex === true,
      head: previewTags({
        title: input.title,
        description: input.description,
        url: input.url,
        ...(firstImage === undefined
          ? {}
          : { imageUrl: new URL(firstImage.contentPath, input.url).toString() })
      })
    },
    html`<article><h1 class="page-title">${input.title}</h1>${input.description?.trim() ? html`<p class="lead">${input.description}</p>` : ""}${
      input.items.length === 0
        ? html`<p class="lead">This collection is empty.</p>`
        : html`<ul class="gallery">${input.items.map(
            (item) =>
              html`<li><figure><a${attr("href", item.kind === "image" ? item.contentPath : item.downloadPath)}${item.kind === "image" ? "" : html` download`}>${html`<img${attr("src", item.previewPath)}${attr("alt", item.caption ?? item.name)} loading="lazy">`}</a><figcaption>${item.name}<span>${item.caption ?? formatBytes(item.size)}</span></figcaption></figure></li>`
          )}</ul>`
    }</article>`
  )
}
