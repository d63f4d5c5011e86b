// Resource list orders and cursors, shared by the SQL repository and its memory twin so both page
// identically: a cursor is [sort, key, id] of the last item, the key being the ISO time or the
// title sort key (titleSortKey) the list is ordered by.
import {
  decodeCursor,
  encodeCursor,
  InvalidCursor,
  isIsoInstant,
  type ResourceListItem,
  type ResourceSort,
  titleSortKey
} from "@folio/domain"
import { Effect, Option } from "effect"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

interface SortSpec {
  readonly key: "created_at" | "updated_at" | "title_key"
  readonly descending: boolean
}

export const SORTS: Readonly<Record<ResourceSort, SortSpec>> = {
  created_desc: { key: "created_at", descending: true },
  created_asc: { key: "created_at", descending: false },
  updated_desc: { key: "updated_at", descending: true },
  updated_asc: { key: "updated_at", descending: false },
  title_asc: { key: "title_key", descending: false },
  title_desc: { key: "title_key", descending: true }
}

/** The sort key of a listed resource, as its cursor holds it (memory lists share this). */
export const sortKeyOf = (sort: ResourceSort, r: ResourceListItem): string => {
  switch (SORTS[sort].key) {
    case "created_at":
      return r.createdAt.toISOString()
    case "updated_at":
      return r.updatedAt.toISOString()
    case "title_key":
      return titleSortKey(r.title)
  }
}

/**
 * Resource list cursors: [sort, key, id] of the last item. A cursor of another sort, or of any other
 * shape, is InvalidCursor (the memory twin decodes with this too).
 */
export const resourceCursor = {
  encode: (sort: ResourceSort, key: string, id: string): string => encodeCursor([sort, key, id]),
  decode: (sort: ResourceSort, cursor: string | undefined) =>
    Effect.suspend(() => {
      if (cursor === undefined) return Effect.succeed(undefined)
      const decoded = decodeCursor(cursor)
      if (Option.isNone(decoded)) return Effect.fail(new InvalidCursor())
      const [tag, key, id, ...rest] = decoded.value
      if (
        rest.length > 0 ||
        tag !== sort ||
        typeof key !== "string" ||
        typeof id !== "string" ||
        !UUID.test(id) ||
        (SORTS[sort].key !== "title_key" && !isIsoInstant(key))
      ) {
        return Effect.fail(new InvalidCursor())
      }
      return Effect.succeed({ key, id })
    })
}
