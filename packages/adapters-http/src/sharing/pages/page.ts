// The public pages of the sharing service as complete HTML documents: a Markdown page (its sanitized
// body inside a readable, mobile-friendly layout, with OpenGraph and Twitter tags for link previews),
// the password form, and the pages of a resource that cannot be shown (not yet started, expired, over
// its view limit, not found). Every page has one constant stylesheet, allowed by its hash, and no
// script at all: `SHARING_PAGE_CSP` is the policy to send with each of them. Every text is escaped by
// the `html` template; only the Markdown body, sanitized in markdown.ts, goes in as markup.
import { createHash } from "node:crypto"
import { attr, type Html, html, unsafeRaw } from "../../shared/index.js"
import { markdownExcerpt, renderMarkdown } from "./markdown.js"

const STYLE = `
:root{color-scheme:light dark;--bg:#fbfbfa;--text:#1b1b1a;--muted:#5f5e5a;--rule:#e3e2de;--code:#f1f0ec;--link:#3f3bb8;--accent:#5b57d6;--on-accent:#fff;--error:#b3261e}
@media (prefers-color-scheme:dark){:root{--bg:#161615;--text:#ecebe7;--muted:#a9a8a3;--rule:#34332f;--code:#23221f;--link:#aeabff;--accent:#8f8bff;--on-accent:#111;--error:#ffb4ab}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:1.0625rem/1.65 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;overflow-wrap:break-word}
main{max-width:44rem;margin:0 auto;padding:2.5rem 1.25rem 4rem}
.page-title{font-size:2rem;line-height:1.2;margin:0 0 1.5rem;letter-spacing:-.01em}
.md>:first-child{margin-top:0}
.md h1,.md h2,.md h3,.md h4,.md h5,.md h6{line-height:1.25;margin:2rem 0 .75rem}
.md h1{font-size:1.75rem}.md h2{font-size:1.45rem}.md h3{font-size:1.2rem}.md h4,.md h5,.md h6{font-size:1rem}
.md p,.md ul,.md ol,.md dl,.md blockquote,.md pre,.md table,.md figure,.md details{margin:0 0 1.1rem}
.md ul,.md ol{padding-left:1.5rem}
.md li+li{margin-top:.25rem}
.md a,.message a{color:var(--link);text-underline-offset:.15em}
.md img{max-width:100%;height:auto}
.md hr{border:0;border-top:1px solid var(--rule);margin:2rem 0}
.md blockquote{margin-left:0;padding:.1rem 0 .1rem 1rem;border-left:3px solid var(--rule);color:var(--muted)}
.md code,.md kbd,.md samp{font:.9em/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code);border-radius:4px;padding:.1em .3em}
.md pre{background:var(--code);border-radius:8px;padding:1rem;overflow-x:auto}
.md pre code{background:none;padding:0;font-size:.875rem}
.md table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
.md th,.md td{border:1px solid var(--rule);padding:.4rem .7rem;text-align:left;vertical-align:top}
.md th{background:var(--code)}
.md .align-center{text-align:center}.md .align-right{text-align:right}
.md summary{cursor:pointer}
.message{text-align:center;padding-top:12vh}
.message h1{font-size:1.6rem;line-height:1.25;margin:0 0 .75rem}
.message p{color:var(--muted);margin:0 0 1rem}
.unlock{max-width:22rem;margin:1.5rem auto 0;text-align:left}
.unlock label{display:block;font-weight:600;margin-bottom:.4rem}
.unlock input{display:block;width:100%;font:inherit;padding:.65rem .75rem;border:1px solid var(--muted);border-radius:8px;background:var(--bg);color:var(--text)}
.unlock input:focus-visible,.unlock button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.unlock button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.7rem 1rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
.unlock .error{color:var(--error);margin:.75rem 0 0;text-align:left}
.file-card{border:1px solid var(--rule);border-radius:12px;padding:1.25rem;margin:0 0 1.5rem}
.file-card .meta{color:var(--muted);margin:.25rem 0 1rem}
.shown{display:block;max-width:100%;height:auto;margin:0 auto 1.25rem;border-radius:8px}
.btn{display:inline-block;font:inherit;font-weight:600;padding:.65rem 1.1rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);text-decoration:none;cursor:pointer}
.btn:focus-visible,.gallery a:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.lead{color:var(--muted);margin:-.75rem 0 1.5rem}
.gallery{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:1rem}
.gallery figure{margin:0}
.gallery img{display:block;width:100%;aspect-ratio:1;object-fit:cover;border-radius:8px;background:var(--code)}
.gallery figcaption{font-size:.9rem;margin-top:.4rem}
.gallery figcaption span{display:block;color:var(--muted)}
.bio{max-width:34rem;margin:0 auto;text-align:center}
.bio[data-theme=dark],.bio[data-theme=mono]{--accent:#e5e5e5;--on-accent:#111}
.bio[data-theme=sunset]{--accent:#e0582b;--on-accent:#fff}
.bio[data-theme=forest]{--accent:#2f7d4f;--on-accent:#fff}
.bio[data-theme=ocean]{--accent:#1f6fb2;--on-accent:#fff}
.bio .cover{display:block;width:100%;aspect-ratio:3/1;object-fit:cover;border-radius:12px;margin:0 0 -3rem}
.bio .avatar{display:block;width:6rem;height:6rem;border-radius:50%;object-fit:cover;margin:0 auto .75rem;border:3px solid var(--bg);background:var(--code)}
.bio .name{font-size:1.5rem;margin:.5rem 0 .25rem}
.bio .headline{color:var(--muted);margin:0 0 .75rem}
.bio .about{margin:0 0 1.5rem;white-space:pre-line}
.bio nav{display:flex;flex-wrap:wrap;gap:.5rem;justify-content:center;margin:0 0 1.5rem}
.bio nav a{color:var(--link)}.bio nav a[aria-current=page]{font-weight:700;text-decoration:none}
.blocks{list-style:none;padding:0;margin:0;display:grid;gap:.75rem;text-align:left}
.bio-link{display:flex;align-items:center;gap:.75rem;min-height:3.25rem;padding:.6rem 1rem;border-radius:12px;background:var(--accent);color:var(--on-accent);font-weight:600;text-decoration:none}
.bio-link img{width:2.25rem;height:2.25rem;border-radius:8px;object-fit:cover}
.bio-link:focus-visible,.bio-form button:focus-visible,.bio-form input:focus-visible,.bio-form textarea:focus-visible{outline:3px solid var(--text);outline-offset:2px}
.blocks h2{font-size:1.15rem;margin:.75rem 0 0;text-align:center}
.blocks .text{margin:0;white-space:pre-line}
.blocks figure{margin:0}.blocks figure img{display:block;width:100%;height:auto;border-radius:12px}
.blocks figcaption{color:var(--muted);font-size:.9rem;margin-top:.35rem;text-align:center}
.bio-form{border:1px solid var(--rule);border-radius:12px;padding:1rem}
.bio-form h2{margin:0 0 .75rem;text-align:left}
.bio-form label{display:block;font-weight:600;margin:.6rem 0 .3rem}
.bio-form input,.bio-form textarea{display:block;width:100%;font:inherit;padding:.6rem .7rem;border:1px solid var(--muted);border-radius:8px;background:var(--bg);color:var(--text)}
.bio-form textarea{min-height:6rem;resize:vertical}
.bio-form button{margin-top:1rem;width:100%;font:inherit;font-weight:600;padding:.7rem 1rem;border:0;border-radius:8px;background:var(--accent);color:var(--on-accent);cursor:pointer}
.bio-form .trap{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}
.bio-form .sent{color:var(--accent);font-weight:600;margin:.75rem 0 0}
.bio-form .error{color:var(--error);margin:.75rem 0 0}
.notion-nav ul{list-style:none;padding:0 0 1rem;margin:0 0 1.5rem;border-bottom:1px solid var(--rule)}
.notion-nav a{color:var(--link)}.notion-nav a[aria-current=page]{font-weight:700;text-decoration:none}
.notion-nav .depth-1{padding-left:1rem}.notion-nav .depth-2{padding-left:2rem}.notion-nav .depth-3,.notion-nav .depth-4,.notion-nav .depth-5,.notion-nav .depth-6{padding-left:3rem}
.md .callout{display:flex;gap:.6rem;background:var(--code);border-radius:8px;padding:.9rem 1rem;margin:0 0 1.1rem}
.md .callout>p:last-child{margin-bottom:0}
.md .to-do{list-style:none;padding-left:0}
.md .indent{padding-left:1.5rem}
@media (max-width:480px){main{padding-top:1.5rem}.page-title{font-size:1.6rem}}
`
  .trim()
  .replace(/\n/g, "")

const STYLE_HASH = `sha256-${createHash("sha256").update(STYLE, "utf8").digest("base64")}`

/**
 * The Content-Security-Policy of every sharing page: nothing loads but images over https or as data
 * URLs and the page's own stylesheet (by its hash); no script, frame, plugin or base may run, the page
 * cannot be framed, and a form may only post back to us (the password page's).
 */
export const SHARING_PAGE_CSP = [
  "default-src 'none'",
  "img-src 'self' https: data:",
  `style-src '${STYLE_HASH}'`,
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'"
].join("; ")

/** The headers to send with any sharing page (the lead's routes add status, caching and encoding). */
export const SHARING_PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": SHARING_PAGE_CSP,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer"
}

const HTTP_URL = /^https?:\/\//i

interface ShellOptions {
  readonly title: string
  readonly lang?: string | undefined
  /** Keep the page out of search engines (unlisted pages and every state page). */
  readonly noindex: boolean
  readonly head?: Html
}

const LANG = /^[a-zA-Z]{2,3}(?:-[a-zA-Z0-9]{2,8})*$/

export const shell = (o: ShellOptions, main: Html): Html =>
  html`<!doctype html>
<html lang="${o.lang !== undefined && LANG.test(o.lang) ? o.lang : "en"}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${o.title}</title>${o.noindex ? html`<meta name="robots" content="noindex,nofollow">` : ""}${o.head ?? ""}<style>${unsafeRaw(STYLE)}</style></head><body><main id="main">${main}</main></body></html>`

export interface MarkdownPageInput {
  /** The resource's title: the page's `<title>`, its heading, og:title and twitter:title. */
  readonly title: string
  /** The Markdown source (body_markdown), rendered and sanitized here. */
  readonly markdown: string
  /** The meta, og: and twitter: description; the start of the page's text when omitted or empty. */
  readonly description?: string | undefined
  /** The page's public URL (og:url and the canonical link). */
  readonly url: string
  /** og:image and twitter:image, when the owner gave one (http or https only). */
  readonly imageUrl?: string | undefined
  /** The `lang` of the document (BCP 47), "en" when omitted or not a language tag. */
  readonly lang?: string | undefined
  /** Unlisted pages are served but not indexed. */
  readonly noindex?: boolean | undefined
  /** og:site_name, "Folio" when omitted. */
  readonly siteName?: string | undefined
}

/** The OpenGraph and Twitter card tags of a page (every value escaped; URLs only http and https). */
export const previewTags = (input: {
  readonly title: string
  readonly description?: string | undefined
  readonly url: string
  readonly imageUrl?: string | undefined
  readonly siteName?: string | undefined
}): Html => {
  const description = input.description?.trim() || undefined
  const image = input.imageUrl !== undefined && HTTP_URL.test(input.imageUrl) ? input.imageUrl : undefined
  const url = HTTP_URL.test(input.url) ? input.url : undefined
  const meta = (kind: "property" | "name", key: string, value: string | undefined): Html | "" =>
    value === undefined ? "" : html`<meta${attr(kind, key)}${attr("content", value)}>`
  return html`${description === undefined ? "" : meta("name", "description", description)}${url === undefined ? "" : html`<link rel="canonical"${attr("href", url)}>`}${meta("property", "og:type", "article")}${meta("property", "og:site_name", input.siteName ?? "Folio")}${meta("property", "og:title", input.title)}${meta("property", "og:description", description)}${meta("property", "og:url", url)}${meta("property", "og:image", image)}${meta("name", "twitter:card", image === undefined ? "summary" : "summary_large_image")}${meta("name", "twitter:title", input.title)}${meta("name", "twitter:description", description)}${meta("name", "twitter:image", image)}`
}

/** A Markdown resource's public page. */
export const renderMarkdownPage = (input: MarkdownPageInput): Html =>
  shell(
    {
      title: input.title,
      lang: input.lang,
      noindex: input.noindex === true,
      head: previewTags({
        ...input,
        description: input.description?.trim() || markdownExcerpt(input.markdown)
      })
    },
    // A page whose Markdown opens with its own top heading shows that one, not the title twice.
    /^\s*#\s/.test(input.markdown)
      ? html`<article><div class="md">${renderMarkdown(input.markdown)}</div></article>`
      : html`<article><h1 class="page-title">${input.title}</h1><div class="md">${renderMarkdown(input.markdown)}</div></article>`
  )

const messagePage = (heading: string, body: string, extra: Html | "" = ""): Html =>
  shell(
    { title: heading, noindex: true },
    html`<section class="message"><h1>${heading}</h1><p>${body}</p>${extra}</section>`
  )

export interface PasswordPageInput {
  /** Where the form posts (the resource's public path, e.g. `/s/{slug}`). */
  readonly action: string
  /** Why the last attempt failed, if it did. */
  readonly error?: "wrong_password" | "rate_limited" | undefined
}

export const PASSWORD_FIELD = "password"

const PASSWORD_ERRORS = {
  wrong_password: "That password is not right. Try again.",
  rate_limited: "Too many attempts. Wait a minute, then try again."
} as const

/**
 * The form asking for a protected resource's password. It names nothing of the resource (not its
 * title nor description): the password protects those too.
 */
export const renderPasswordPage = (input: PasswordPageInput): Html => {
  const error = input.error === undefined ? undefined : PASSWORD_ERRORS[input.error]
  return messagePage(
    "Password required",
    "This page is protected. Enter its password to open it.",
    html`<form class="unlock" method="post"${attr("action", input.action)}><label for="password">Password</label><input id="password" type="password"${attr("name", PASSWORD_FIELD)} autocomplete="current-password" required autofocus${error === undefined ? "" : html` aria-invalid="true" aria-describedby="password-error"`}>${error === undefined ? "" : html`<p id="password-error" class="error" role="alert">${error}</p>`}<button type="submit">Open</button></form>`
  )
}

/** A resource whose `starts_at` is still to come. */
export const renderNotStartedPage = (): Html =>
  messagePage("Not available yet", "This page is not open yet. Come back later.")

/** A resource past its `expires_at`. */
export const renderExpiredPage = (): Html =>
  messagePage("This page has expired", "It is no longer available.")

/** A resource that reached its `max_views`. */
export const renderViewLimitPage = (): Html =>
  messagePage("This page is no longer available", "It has been viewed as many times as its owner allowed.")

/** No resource at this address (unknown, deleted or private). */
export const renderNotFoundPage = (): Html =>
  messagePage("Page not found", "There is nothing at this address. Check the link you followed.")

export interface LinkPreviewPageInput {
  readonly title: string
  readonly description?: string | undefined
  /** The link's public URL (og:url). */
  readonly url: string
  readonly imageUrl?: string | undefined
  /** Where the link leads; shown as a plain link (a preview bot follows no redirect here). */
  readonly destination: string
  readonly noindex?: boolean | undefined
}

/**
 * What a link-preview bot (a chat app or social network unfurling the link) gets instead of the
 * redirect: the owner's og_* tags, and the destination as a link.
 */
export const renderLinkPreviewPage = (input: LinkPreviewPageInput): Html =>
  shell(
    { title: input.title, noindex: input.noindex === true, head: previewTags(input) },
    html`<section class="message"><h1>${input.title}</h1>${input.description?.trim() ? html`<p>${input.description}</p>` : ""}<p><a${attr("href", HTTP_URL.test(input.destination) ? input.destination : "#")} rel="noopener noreferrer nofollow">Continue</a></p></section>`
  )

/**
 * A collection, Notion mirror or bio page: its title and description, until their content is
 * served (a later issue adds it).
 */
export const renderPlaceholderPage = (input: {
  readonly title: string
  readonly description?: string | undefined
  readonly url: string
  readonly noindex?: boolean | undefined
  /** What the page says instead of the description (which stays in the preview tags). */
  readonly message?: string | undefined
}): Html =>
  shell(
    { title: input.title, noindex: input.noindex === true, head: previewTags(input) },
    html`<section class="message"><h1>${input.title}</h1><p>${input.message ?? (input.description?.trim() || "This page has no content to show yet.")}</p></section>`
  )
