// How the console writes dates: UTC, to the minute, inside <time> so a reader (or a script) has the
// exact instant.
import { html } from "../../shared/html.js"

export const dateTime = (at: Date | null, none = "never") =>
  at === null
    ? none
    : html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 16).replace("T", " ")} UTC</time>`

export const dateOnly = (at: Date | null, none = "never") =>
  at === null ? none : html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 10)}</time>`
