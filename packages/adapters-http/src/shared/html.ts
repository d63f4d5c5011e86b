// A tagged template for HTML that escapes every interpolated value unless it is already `Html`, so a
// respondent's answer or an author's text can never become markup by accident.

/** Markup that is already safe to emit. Only `html` and `unsafeRaw` make one. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;"
}

/** Text for an element body or a quoted attribute value. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)

type Part = Html | string | number | boolean | null | undefined | ReadonlyArray<Part>

const render = (part: Part): string => {
  if (part === null || part === undefined || part === false || part === true) return ""
  if (part instanceof Html) return part.text
  if (Array.isArray(part)) return (part as ReadonlyArray<Part>).map(render).join("")
  return escapeHtml(String(part))
}

export const html = (strings: TemplateStringsArray, ...values: ReadonlyArray<Part>): Html => {
  let out = strings[0] ?? ""
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? "")
  return new Html(out)
}

/** Markup built by this module's own code from constants (never from input). */
export const unsafeRaw = (text: string): Html => new Html(text)

/** ` name="value"` when value is set, nothing otherwise. */
export const attr = (name: string, value: string | number | undefined | null | false): Html =>
  value === undefined || value === null || value === false
    ? new Html("")
    : new Html(` ${name}="${escapeHtml(String(value))}"`)

/** JSON inside `<script type="application/json">`: no `<` may close the element early. */
export const jsonScript = (value: unknown): Html =>
  new Html(
    JSON.stringify(value)
      .replace(/</g, "\\u003c")
      .replace(/\u2028/g, "\\u2028")
      .replace(/\u2029/g, "\\u2029")
  )
