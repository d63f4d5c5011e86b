// Query passthrough: the visit's query parameters are appended to the destination, as Bitly, Dub
// and Short.io do, so `/s/promo?utm_source=x` reaches the target with `utm_source=x`. A parameter
// the destination already names keeps the owner's value (a visitor cannot override `ref=owner`).
import type { Visit } from "./visit.js"

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const encode = (text: string): string => encodeURIComponent(text.replace(LONE_SURROGATE, "\ufffd"))

const decodeName = (raw: string): string => {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "))
  } catch {
    return raw
  }
}

/**
 * `destination` with the visit's parameters that it does not already name appended, before any
 * fragment. The destination's own query text is kept byte for byte (never re-encoded).
 */
export const forwardQuery = (destination: string, query: Visit["query"]): string => {
  if (query.length === 0) return destination
  const hashAt = destination.indexOf("#")
  const base = hashAt < 0 ? destination : destination.slice(0, hashAt)
  const fragment = hashAt < 0 ? "" : destination.slice(hashAt)
  const queryAt = base.indexOf("?")
  const own = new Set(
    queryAt < 0
      ? []
      : base
          .slice(queryAt + 1)
          .split("&")
          .filter((pair) => pair !== "")
          .map((pair) => decodeName(pair.split("=", 1)[0] ?? ""))
  )
  const extra = query
    .filter(([name]) => !own.has(name))
    .map(([name, value]) => `${encode(name)}=${encode(value)}`)
  if (extra.length === 0) return destination
  const separator = queryAt < 0 ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&"
  return `${base}${separator}${extra.join("&")}${fragment}`
}
