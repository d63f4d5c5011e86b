// The rules every resource shares, whatever its type: public slugs (global across tenants, since
// `/s/{slug}` has no tenant in it), random slugs, labels, and the lengths of title and description.
// Schemas for the wire decoders, plain predicates for code that already holds a string.
import { Effect, Schema } from "effect"
import { IdGen } from "../../kernel/ports/id-gen.js"
import type { Visibility } from "./resource.js"

/** 3 to 64 lowercase letters, digits, hyphens and underscores (sharing-api.md, common fields). */
export const RESOURCE_SLUG_PATTERN = /^[a-z0-9_-]{3,64}$/

export const ResourceSlug = Schema.String.check(Schema.isPattern(RESOURCE_SLUG_PATTERN))

export const isResourceSlug = (slug: string): boolean => RESOURCE_SLUG_PATTERN.test(slug)

/** Length of the slug assigned when a create names none. */
export const RANDOM_SLUG_LENGTH = 8

/**
 * The random slug alphabet: lowercase letters and digits without `0`, `o`, `1` and `l`, which read
 * alike when a link is typed from paper. Exactly 32 characters, so a byte's low five bits pick one
 * without bias; 8 characters carry 40 bits.
 */
export const RANDOM_SLUG_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"

/** The slug of `bytes` (at least RANDOM_SLUG_LENGTH of them): pure, for tests and for the effect below. */
export const slugFromBytes = (bytes: Uint8Array): string => {
  let out = ""
  for (let i = 0; i < RANDOM_SLUG_LENGTH; i++) out += RANDOM_SLUG_ALPHABET[(bytes[i] ?? 0) & 31]
  return out
}

/** A fresh random slug from the IdGen port. A taken one is the caller's to retry (SlugTaken). */
export const randomResourceSlug: Effect.Effect<string, never, IdGen> = Effect.flatMap(
  Effect.service(IdGen),
  (ids) => Effect.map(ids.randomBytes(RANDOM_SLUG_LENGTH), slugFromBytes)
)

/** One label: 1 to 64 lowercase letters, digits, hyphens and underscores. */
export const RESOURCE_LABEL_PATTERN = /^[a-z0-9_-]{1,64}$/

/** At most this many labels per resource. */
export const MAX_RESOURCE_LABELS = 20

export const ResourceLabel = Schema.String.check(Schema.isPattern(RESOURCE_LABEL_PATTERN))

/** Up to 20 labels; duplicates are allowed on the wire and dropped by `normalizeLabels`. */
export const ResourceLabels = Schema.Array(ResourceLabel).check(Schema.isMaxLength(MAX_RESOURCE_LABELS))

export const isResourceLabel = (label: string): boolean => RESOURCE_LABEL_PATTERN.test(label)

/** Labels as stored: duplicates dropped, first occurrence kept, order otherwise as given. */
export const normalizeLabels = (labels: ReadonlyArray<string>): ReadonlyArray<string> => [...new Set(labels)]

/** How a create body describes its resource: absent title and description are none, visibility public. */
export const describedBy = (input: {
  readonly title?: string | null | undefined
  readonly description?: string | null | undefined
  readonly visibility?: Visibility | undefined
  readonly labels?: ReadonlyArray<string> | undefined
}) => ({
  title: input.title ?? null,
  description: input.description ?? null,
  visibility: input.visibility ?? "public",
  labels: normalizeLabels(input.labels ?? [])
})

export const MAX_RESOURCE_TITLE_LENGTH = 300
export const MAX_RESOURCE_DESCRIPTION_LENGTH = 2000

export const ResourceTitle = Schema.String.check(Schema.isMaxLength(MAX_RESOURCE_TITLE_LENGTH))
export const ResourceDescription = Schema.String.check(Schema.isMaxLength(MAX_RESOURCE_DESCRIPTION_LENGTH))

/**
 * The key lists sort titles by: case folded and compatibility-normalized, so "apple", "Apple" and
 * "ａｐｐｌｅ" sort together. Computed here once, stored beside the title and compared by code point,
 * so memory and SQL order (and page) titles identically whatever the database's collation.
 * Only the first TITLE_SORT_KEY_LENGTH code points count (ties then break on id), so a list cursor
 * holding a key stays short whatever the title. An untitled resource sorts first.
 */
export const titleSortKey = (title: string | null): string =>
  title === null
    ? ""
    : Array.from(title.normalize("NFKC").toLowerCase()).slice(0, TITLE_SORT_KEY_LENGTH).join("")

/** Code points of a title that decide its place in a list sorted by title. */
export const TITLE_SORT_KEY_LENGTH = 40

/**
 * Orders strings by code point, as PostgreSQL's "C" collation orders their UTF-8 bytes (JavaScript's
 * `<` compares UTF-16 code units, which puts U+10000 and above before U+E000..U+FFFF).
 */
export const compareCodePoints = (a: string, b: string): number => {
  const x = Array.from(a)
  const y = Array.from(b)
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0)
    if (d !== 0) return d < 0 ? -1 : 1
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1
}

/** A wire date-time (absent or null: none) as a Date; the wire schema has checked its form. */
export const dateOrNull = (text: string | null | undefined): Date | null =>
  text === undefined || text === null ? null : new Date(text)
