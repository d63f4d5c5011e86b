// Keyset cursors for SQL lists: the cursor holds the sort key of the last row, and must have the
// exact shape this list issues (anything else is InvalidCursor, never a query error).
import { decodeCursor, encodeCursor, InvalidCursor, isInt32, isIsoInstant } from "@folio/domain"
import { Effect, Option } from "effect"

export { toPage } from "../paging.js"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** [timestamp, id] positions, for lists ordered by a timestamp then id, descending. */
export const timeIdCursor = {
  encode: (at: Date, id: string): string => encodeCursor([at.toISOString(), id]),
  decode: (cursor: string | undefined) =>
    Effect.suspend(() => {
      if (cursor === undefined) return Effect.succeed(undefined)
      const decoded = decodeCursor(cursor)
      if (Option.isNone(decoded)) return Effect.fail(new InvalidCursor())
      const [at, id, ...rest] = decoded.value
      if (
        rest.length > 0 ||
        typeof at !== "string" ||
        typeof id !== "string" ||
        !isIsoInstant(at) ||
        !UUID.test(id)
      ) {
        return Effect.fail(new InvalidCursor())
      }
      return Effect.succeed({ at, id })
    })
}

/** [number] positions, for lists ordered by an integer (a 32-bit column), descending. */
export const numberCursor = {
  encode: (n: number): string => encodeCursor([n]),
  decode: (cursor: string | undefined) =>
    Effect.suspend(() => {
      if (cursor === undefined) return Effect.succeed(undefined)
      const decoded = decodeCursor(cursor)
      if (Option.isNone(decoded)) return Effect.fail(new InvalidCursor())
      const [n, ...rest] = decoded.value
      if (rest.length > 0 || typeof n !== "number" || !isInt32(n)) return Effect.fail(new InvalidCursor())
      return Effect.succeed(n)
    })
}

/** Escapes LIKE wildcards so a search term matches literally. */
export const likeContains = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
