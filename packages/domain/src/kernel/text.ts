// Text no store can keep faithfully: PostgreSQL refuses a NUL character (in text and jsonb alike)
// and an unpaired UTF-16 surrogate has no UTF-8 form (the driver writes U+FFFD in its place, so a
// title would change silently). Every surface checks its decoded input with this one function
// before anything is stored, and answers value-free issues naming where the text is.
import type { Issue } from "./errors.js"

/** Deeper than any input of this API nests; deeper values are refused before any recursive code sees them. */
export const MAX_INPUT_DEPTH = 64

type Path = ReadonlyArray<string | number>

/** A high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** The rules a string breaks, in a fixed order: `nulCharacter`, then `unpairedSurrogate`. */
export const unsafeTextRules = (text: string): ReadonlyArray<string> => {
  const nul = text.includes("\u0000")
  const lone = LONE_SURROGATE.test(text)
  if (!nul && !lone) return []
  return nul && lone ? ["nulCharacter", "unpairedSurrogate"] : [nul ? "nulCharacter" : "unpairedSurrogate"]
}

/**
 * Issues for every string (and object key) of a decoded JSON value that cannot be stored, and for
 * nesting deeper than MAX_INPUT_DEPTH. A bad key is reported at the path of its object, so the
 * issue never repeats the key's text. Iterative, so hostile nesting cannot exhaust the stack.
 */
export const unsafeTextIssues = (value: unknown, at: Path = []): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  const seen = new Set<string>()
  const push = (path: Path, rule: string) => {
    const key = `${rule}:${JSON.stringify(path)}`
    if (seen.has(key)) return
    seen.add(key)
    out.push({ path, rule })
  }
  const stack: Array<readonly [unknown, Path]> = [[value, at]]
  while (stack.length > 0) {
    const [current, path] = stack.pop() as readonly [unknown, Path]
    if (typeof current === "string") {
      for (const rule of unsafeTextRules(current)) push(path, rule)
      continue
    }
    if (typeof current !== "object" || current === null) continue
    if (path.length - at.length >= MAX_INPUT_DEPTH) {
      push(path, "maxDepth")
      continue
    }
    // Pushed in reverse so issues come out in document order.
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], [...path, i]])
      continue
    }
    const keys = Object.keys(current)
    for (let i = keys.length - 1; i >= 0; i--) {
      const k = keys[i] as string
      stack.push([(current as Record<string, unknown>)[k], [...path, k]])
    }
    for (const k of keys) for (const rule of unsafeTextRules(k)) push(path, rule)
  }
  return out
}

const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g")

/**
 * `value` with every string (and key) made storable: NUL characters and unpaired surrogates become
 * U+FFFD. For text the service itself writes from sources it cannot refuse (a model's output, text
 * it cut), where input checks do not apply.
 */
export const storableJson = (value: unknown): unknown => {
  if (typeof value === "string")
    return value.includes("\u0000") || LONE_SURROGATE.test(value)
      ? value.replaceAll("\u0000", "\ufffd").replace(LONE_SURROGATES, "\ufffd")
      : value
  if (Array.isArray(value)) return value.map(storableJson)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [storableJson(k) as string, storableJson(v)])
  )
}

/** At most `max` UTF-16 units, ending with an ellipsis when cut, never inside a surrogate pair. */
export const clipText = (text: string, max: number): string => {
  if (text.length <= max) return text
  let cut = text.slice(0, max - 1)
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1)
  return `${cut}…`
}
