// Many links in one call (`POST /resources/bulk-create`, and the rows of `POST /resources/import`):
// each item is checked and created on its own, so one bad item fails alone. Items carry ids derived
// from the request's Idempotency-Key, so a run that died halfway and is run again finds the links it
// already made instead of making them twice.
import { Effect, Option, Result, Schema } from "effect"
import { Principal } from "../../identity/principal.js"
import { sha256Bytes } from "../../kernel/digest.js"
import { uuidV4FromBytes } from "../../kernel/ids.js"
import { issuesOf, STRICT_ALL } from "../../kernel/issues.js"
import { documentedAs } from "../../kernel/json-schema.js"
import { InvalidField, isFieldRefusal, ResourceSlugInUse, type SharingFieldRefusal } from "../errors.js"
import { ResourceRepository } from "../ports/resources.js"
import type { ResourceRecord } from "./resource.js"
import { createResourceWith } from "./use-cases.js"
import { CreateLinkInput } from "./wire.js"

/** Links per bulk create call (sharing-api.md, limits). */
export const BULK_CREATE_MAX = 200

/** Items created at once: password hashing runs off the main thread, so a few overlap usefully. */
const ITEM_CONCURRENCY = 4

const { type: _linkType, ...linkCreateFields } = CreateLinkInput.fields

/** One item of a bulk create: a link's create body, where `type` may be left out. */
export const BulkLinkItem = Schema.Struct({
  type: Schema.optionalKey(Schema.Literal("link")),
  ...linkCreateFields
}).annotate({ identifier: "BulkLink" })
export type BulkLinkItem = typeof BulkLinkItem.Type

/**
 * The body of `POST /resources/bulk-create`. Items are documented as links but decoded one by one
 * by the use case, so a bad item is that item's failure, not the whole call's.
 */
export const BulkCreateInput = Schema.Struct({
  items: Schema.Array(documentedAs(BulkLinkItem, "BulkLinkItem")).check(
    Schema.isMinLength(1),
    Schema.isMaxLength(BULK_CREATE_MAX)
  )
}).annotate({ identifier: "BulkCreate" })
export type BulkCreateInput = typeof BulkCreateInput.Type

/** Why one item was not created. */
export type ItemFailure = SharingFieldRefusal | ResourceSlugInUse

export type ItemOutcome =
  | { readonly _tag: "Created"; readonly resource: ResourceRecord }
  | { readonly _tag: "Failed"; readonly error: ItemFailure }

const decodeItem = Schema.decodeUnknownResult(BulkLinkItem)

/** The item's body as a link, or the first thing wrong with it (value-free, with its field). */
export const checkLinkItem = (item: unknown): Result.Result<BulkLinkItem, InvalidField> => {
  const decoded = decodeItem(item, STRICT_ALL)
  if (Result.isSuccess(decoded)) return Result.succeed(decoded.success)
  // A wrong `type` explains every other complaint (the fields of another type), so it is named first.
  const issues = issuesOf(decoded.failure)
  const first = issues.find((issue) => issue.path[0] === "type") ?? issues[0]
  const field = first === undefined || first.path.length === 0 ? "item" : first.path.join(".")
  return Result.fail(new InvalidField({ field, reason: first?.expected ?? first?.rule ?? "invalid" }))
}

/**
 * The id of item `index` of the request `seed` names (tenant, key and request digest): the same on
 * every run of that request, unrelated across requests. UUID-shaped from a digest, not random.
 */
export const bulkItemId = (seed: string, index: number): string =>
  uuidV4FromBytes(sha256Bytes(`${seed}\n${index}`))

/**
 * Creates each item on its own and answers an outcome per item, in order. Item ids derive from
 * `seed`, and an item whose id already exists (made by an earlier run of the same request) is
 * answered as created without being made again.
 */
export const createLinks = (items: ReadonlyArray<unknown>, seed: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    // Items run a few at a time, so the order of their inserts is not theirs: a slug that an earlier
    // item of the request asks for is refused to the later ones up front, and the earlier one wins.
    const asked = new Set<string>()
    const checkedItems = items.map((item) =>
      Result.flatMap(checkLinkItem(item), (link) => {
        if (link.slug === undefined) return Result.succeed(link)
        if (asked.has(link.slug)) return Result.fail(new ResourceSlugInUse())
        asked.add(link.slug)
        return Result.succeed(link)
      })
    )
    return yield* Effect.forEach(
      checkedItems,
      (checked, index) =>
        Effect.gen(function* () {
          if (Result.isFailure(checked)) return { _tag: "Failed", error: checked.failure } as const
          const id = bulkItemId(seed, index)
          const earlier = yield* repo.get(principal.tenant, id)
          if (Option.isSome(earlier)) return { _tag: "Created", resource: earlier.value } as const
          return yield* createResourceWith(
            { ...checked.success, type: "link" },
            { spendLinkBudget: false, id }
          ).pipe(
            Effect.map((resource): ItemOutcome => ({ _tag: "Created", resource })),
            Effect.catchIf(isFieldRefusal, (error) => Effect.succeed<ItemOutcome>({ _tag: "Failed", error })),
            Effect.catchTag("ResourceSlugInUse", (error) =>
              Effect.succeed<ItemOutcome>({ _tag: "Failed", error })
            )
          )
        }),
      { concurrency: ITEM_CONCURRENCY }
    )
  })
