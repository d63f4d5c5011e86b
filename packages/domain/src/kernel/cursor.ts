// Opaque keyset cursors: the position after the last item of a page, encoded as base64url JSON.
// Clients pass them back unchanged; a cursor that does not decode is the caller's mistake, which each
// list reports in its own service's words.
import { Option } from "effect"
import { fromBase64Url, toBase64Url } from "./digest.js"

/** A keyset position: the sort key values of the last row returned. */
export type CursorPosition = ReadonlyArray<string | number>

/** The longest cursor a list accepts: ours stay far below it, and a longer one is refused unread. */
export const MAX_CURSOR_LENGTH = 512

const encoder = new TextEncoder()
const decoder = new TextDecoder()

export const encodeCursor = (position: CursorPosition): string =>
  toBase64Url(encoder.encode(JSON.stringify(position)))

/** The position a cursor holds; none when it is not one of ours. */
export const decodeCursor = (cursor: string): Option.Option<CursorPosition> => {
  const invalid = Option.none<CursorPosition>()
  const bytes = fromBase64Url(cursor)
  if (bytes === undefined || cursor.length > MAX_CURSOR_LENGTH) return invalid
  try {
    const parsed: unknown = JSON.parse(decoder.decode(bytes))
    if (!Array.isArray(parsed) || parsed.length === 0) return invalid
    if (!parsed.every((v) => typeof v === "string" || (typeof v === "number" && Number.isFinite(v))))
      return invalid
    return Option.some(parsed as CursorPosition)
  } catch {
    return invalid
  }
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/**
 * A timestamp exactly as `toISOString` writes it, naming a real instant a database can hold: the
 * format alone lets through month 13, February 30 and year 0, which SQL rejects with an error.
 */
export const isIsoInstant = (text: string): boolean => {
  if (!ISO_INSTANT.test(text) || text.startsWith("0000")) return false
  const at = new Date(text)
  return !Number.isNaN(at.getTime()) && at.toISOString() === text
}

/** An integer a 32-bit SQL column can compare with (`1e300` is an integer to JavaScript). */
export const isInt32 = (n: number): boolean => Number.isInteger(n) && n >= -2147483648 && n <= 2147483647

/**
 * The cursor given to a list did not come from this list: a repository's signal, which each
 * service turns into its own `invalid` answer.
 */
export class InvalidCursor {
  readonly _tag = "InvalidCursor"
}

/** A page of items and the cursor for the next one (null on the last page). */
export interface Page<A> {
  readonly items: ReadonlyArray<A>
  readonly nextCursor: string | null
}
