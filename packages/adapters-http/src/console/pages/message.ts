// Pages that only say something: a refusal (403 role, expired form), a missing page, a confirmation.
import { type Html, html } from "../../shared/html.js"
import { type PageChrome, renderDocument } from "../layout.js"

export const renderMessagePage = (
  chrome: PageChrome,
  message: {
    readonly heading: string
    readonly text: string
    readonly alert?: boolean
    readonly link?: { readonly href: string; readonly label: string }
  }
): Html =>
  renderDocument(
    chrome,
    html`<h1>${message.heading}</h1>
${message.alert === true ? html`<p role="alert">${message.text}</p>` : html`<p>${message.text}</p>`}
${message.link === undefined ? "" : html`<p><a href="${message.link.href}">${message.link.label}</a></p>`}`,
    { narrow: chrome.signedIn === undefined }
  )
