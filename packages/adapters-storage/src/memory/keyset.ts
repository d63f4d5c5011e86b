// Keyset pages over in-memory rows: the same cursors and order as sql/keyset.ts.
import { decodeCursor, encodeCursor, InvalidCursor, type Page } from "@folio/domain"
import { Option, Result } from "effect"
import { toPage } from "../paging.js"

/** Compares keyset positions component-wise (numbers numerically, strings by code unit). */
const comparePositions = (a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i]
    const y = b[i]
    if (x === y) continue
    if (x === undefined) return -1
    if (y === undefined) return 1
    return x < y ? -1 : 1
  }
  return 0
}

/** One descending keyset page over rows already filtered. */
export const pageDescending = <A>(
  rows: ReadonlyArray<A>,
  keyOf: (row: A) => ReadonlyArray<string | number>,
  arity: ReadonlyArray<"number" | "string">,
  query: { readonly limit: number; readonly cursor?: string | undefined }
): Result.Result<Page<A>, InvalidCursor> => {
  let after: ReadonlyArray<string | number> | undefined
  if (query.cursor !== undefined) {
    const decoded = decodeCursor(query.cursor)
    if (Option.isNone(decoded)) return Result.fail(new InvalidCursor())
    const position = decoded.value
    if (position.length !== arity.length || position.some((v, i) => typeof v !== arity[i])) {
      return Result.fail(new InvalidCursor())
    }
    after = position
  }
  const sorted = [...rows].sort((a, b) => comparePositions(keyOf(b), keyOf(a)))
  const rest = after === undefined ? sorted : sorted.filter((row) => comparePositions(keyOf(row), after) < 0)
  return Result.succeed(
    toPage(
      rest,
      query.limit,
      (row) => row,
      (last) => encodeCursor(keyOf(last))
    )
  )
}
