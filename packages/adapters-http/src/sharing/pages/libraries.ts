// The page renderers' libraries, loaded at the first page they render: markdown-it and sanitize-html
// (with its HTML parser and PostCSS) are ~0.1 s of a process's start that most starts never use.
// Required, not imported: the renderers are synchronous, and both packages ship CommonJS.
import { createRequire } from "node:module"
import type MarkdownItClass from "markdown-it"
import type SanitizeHtml from "sanitize-html"

const require = createRequire(import.meta.url)

let sanitizer: typeof SanitizeHtml | undefined
export const sanitizeHtmlLibrary = (): typeof SanitizeHtml =>
  (sanitizer ??= require("sanitize-html") as typeof SanitizeHtml)

let markdownIt: typeof MarkdownItClass | undefined
export const markdownItLibrary = (): typeof MarkdownItClass =>
  (markdownIt ??= require("markdown-it") as typeof MarkdownItClass)
