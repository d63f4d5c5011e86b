// The secrets our URLs carry, and their redaction for everything written about a request (the access
// log and every other log line, the node:http fast path's log line, span attributes): an upload
// request's token is a path segment (`/u/{token}`, only its hash is stored), as is a withdrawal
// link's signature (`/f/{slug}/withdraw/{id}/{mac}`), and signed URLs carry theirs in the query
// (`sig` of a local download, `token` of an artifact's unlock handoff, and S3's and other stores'
// presigned signatures and credentials).
import { Tracer } from "effect"

/** What stands where a secret was. */
export const REDACTED = "[redacted]"

/** Query parameters whose values are secrets (names compared without case). */
export const SECRET_QUERY_NAMES: ReadonlyArray<string> = [
  "sig",
  "token",
  "X-Amz-Signature",
  "X-Amz-Credential",
  "X-Amz-Security-Token",
  "AWSAccessKeyId",
  "Signature",
  "X-Goog-Signature"
]

// A value ends where a URL, a JSON string or a line would: `&`, `#`, space, quote, backslash.
const SECRET_QUERY = new RegExp(`([?&](?:${SECRET_QUERY_NAMES.join("|")})=)[^&#\\s"'\\\\<>]*`, "gi")
/** Path segments that are secrets: what follows `/u/` (an upload request's token). */
const SECRET_SEGMENT = /(\/u\/)[^/?#\s"'\\<>]+/g
/** A withdrawal link's signature: the segment after `/withdraw/{responseId}/` (forms' public page). */
const WITHDRAWAL_MAC = /(\/withdraw\/[^/?#\s"'\\<>]+\/)[^/?#\s"'\\<>]+/g

/** `text` (a URL, a path, a whole log line) with every secret path segment and query value replaced. */
export const redactSecrets = (text: string): string =>
  text.includes("/u/") || text.includes("/withdraw/") || /[?&]/.test(text)
    ? text
        .replace(SECRET_SEGMENT, `$1${REDACTED}`)
        .replace(WITHDRAWAL_MAC, `$1${REDACTED}`)
        .replace(SECRET_QUERY, `$1${REDACTED}`)
    : text

const redactValue = (value: unknown): unknown => (typeof value === "string" ? redactSecrets(value) : value)

/**
 * A tracer whose spans redact every string attribute and event attribute as it is set: the HTTP
 * server span's `url.full`, `url.path` and `url.query` are written by Effect from the raw request,
 * and an exporter sends whatever a span holds.
 */
export const redactingTracer = (inner: Tracer.Tracer): Tracer.Tracer =>
  Tracer.make({
    ...inner,
    span(options) {
      const span = inner.span(options)
      const attribute = span.attribute.bind(span)
      const event = span.event.bind(span)
      span.attribute = (key, value) => attribute(key, redactValue(value))
      span.event = (name, startTime, attributes) =>
        event(
          redactSecrets(name),
          startTime,
          attributes === undefined
            ? undefined
            : Object.fromEntries(Object.entries(attributes).map(([k, v]) => [k, redactValue(v)]))
        )
      return span
    }
  })
