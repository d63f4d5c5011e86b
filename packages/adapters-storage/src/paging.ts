// Pages of a list, the same for every store: a list reads one row more than its limit, and that
// extra row is what says whether a next page (and so a cursor) exists.
/** Splits a limit+1 fetch into the page and the cursor of its last item. */
export const toPage = <Row, A>(
  rows: ReadonlyArray<Row>,
  limit: number,
  toItem: (row: Row) => A,
  cursorOf: (row: Row) => string
) => {
  const items = rows.slice(0, limit)
  const last = items[items.length - 1]
  return {
    items: items.map(toItem),
    nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null
  }
}
