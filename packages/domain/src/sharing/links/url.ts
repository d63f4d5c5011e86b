// The destination URLs a link may send a visitor to: absolute http(s) only, so a link can never
// redirect to `javascript:`, `data:` or a relative path on our own origin.
import { Schema } from "effect"
import { RuleAnnotationId } from "../../kernel/issues.js"

/** Longer URLs break real browsers and proxies (2 KB is the widely safe bound; 8 KB the hard one). */
export const MAX_DESTINATION_URL_LENGTH = 4096

const ABSOLUTE_HTTP = /^https?:\/\/[^\s/?#]+[^\s]*$/i

/** Whether `text` is an absolute http(s) URL with a host and no whitespace or control characters. */
export const isHttpUrl = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x7f) return false
  }
  return ABSOLUTE_HTTP.test(text) && URL.canParse(text)
}

export const DestinationUrl = Schema.String.check(
  Schema.isMaxLength(MAX_DESTINATION_URL_LENGTH),
  Schema.makeFilter(isHttpUrl, {
    [RuleAnnotationId]: "httpUrl",
    expected: "an absolute http(s) URL",
    toJsonSchema: () => ({ format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" }),
    arbitraryConstraint: {
      patterns: [{ source: "^https://[a-z]{1,20}\\.example(/[a-z0-9]{0,20})?$", flags: "" }]
    }
  })
).annotate({ identifier: "DestinationUrl" })
