// The public page of an upload request: a form for a name, a message, the password when the
// request has one, and several files, sent with a progress bar by a small script (allowed by its
// hash) and, without script, by the browser's own multipart post. The pages of a request that takes
// no files say why.
import { createHash } from "node:crypto"
import { attr, type Html, html, unsafeRaw } from "../../shared/index.js"
import { SHARING_PAGE_CSP, shell } from "./page.js"

const SCRIPT = `
const form = document.getElementById("upload");
const bar = document.getElementById("progress");
const status = document.getElementById("status");
form.addEventListener("submit", (event) => {
  if (!window.FormData || !window.XMLHttpRequest) return;
  event.preventDefault();
  const xhr = new XMLHttpRequest();
  xhr.open("POST", form.action);
  bar.hidden = false;
  status.textContent = "Sending…";
  form.querySelector("button").disabled = true;
  xhr.upload.addEventListener("progress", (e) => {
    if (e.lengthComputable) { bar.value = e.loaded; bar.max = e.total; status.textContent = "Sending… " + Math.round(100 * e.loaded / e.total) + "%"; }
  });
  xhr.addEventListener("load", () => {
    if (xhr.responseURL && xhr.responseURL.indexOf("sent=1") >= 0) { window.location.assign(xhr.responseURL); return; }
    document.open(); document.write(xhr.responseText); document.close();
  });
  xhr.addEventListener("error", () => { status.textContent = "The connection was lost. Try again."; form.querySelector("button").disabled = false; });
  xhr.send(new FormData(form));
});
`.trim()

const SCRIPT_HASH = `sha256-${createHash("sha256").update(SCRIPT, "utf8").digest("base64")}`

/** The upload page's policy: the sharing pages' own, plus its one script and posting back to us. */
export const UPLOAD_PAGE_CSP = `${SHARING_PAGE_CSP}; script-src '${SCRIPT_HASH}'; connect-src 'self'`

export interface UploadPageInput {
  readonly title: string
  readonly description: string | null
  /** Where the form posts (`/u/{token}`). */
  readonly action: string
  readonly needsPassword: boolean
  readonly sent?: boolean
  readonly error?: string | undefined
}

export const renderUploadPage = (input: UploadPageInput): Html =>
  shell(
    { title: input.title, noindex: true },
    html`<article><h1 class="page-title">${input.title}</h1>${input.description === null ? "" : html`<p class="lead">${input.description}</p>`}${
      input.sent === true ? html`<p class="sent" role="status">Thank you! Your files were sent.</p>` : ""
    }<form id="upload" class="bio-form" method="post" enctype="multipart/form-data"${attr("action", input.action)}>${
      input.needsPassword
        ? html`<label for="password">Password</label><input id="password" name="password" type="password" required autocomplete="off">`
        : ""
    }<label for="name">Your name <span class="headline">(optional)</span></label><input id="name" name="name" maxlength="100" autocomplete="name"><label for="message">Message <span class="headline">(optional)</span></label><textarea id="message" name="message" maxlength="2000"></textarea><label for="files">Files</label><input id="files" name="files" type="file" multiple required><progress id="progress" value="0" max="1" hidden></progress><p id="status" role="status"></p>${
      input.error === undefined ? "" : html`<p class="error" role="alert">${input.error}</p>`
    }<button type="submit">Send files</button></form></article><script>${unsafeRaw(SCRIPT)}</script>`
  )

const CLOSED_TEXT = {
  paused: ["Uploads are paused", "This upload link is paused for now. Try again later."],
  completed: ["Uploads are closed", "This upload request is complete and takes no more files."],
  revoked: ["This link no longer works", "This upload link was shut down by its owner."],
  expired: ["This link has expired", "This upload link is past its end date."]
} as const

export const renderUploadClosedPage = (reason: keyof typeof CLOSED_TEXT): Html => {
  const [heading, body] = CLOSED_TEXT[reason]
  return shell(
    { title: heading, noindex: true },
    html`<section class="message"><h1>${heading}</h1><p>${body}</p></section>`
  )
}
