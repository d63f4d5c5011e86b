// Authoring images: uploads are typed by their leading bytes, never by the client's claim (only PNG,
// JPEG, GIF and WebP up to 5 MiB), stored under a key that names the workspace and form; and a
// definition or settings may only point at such an asset of its own workspace (image ownership).
// Respondents load the images their published form points at, and no other blob (publicImageKeys).
import { Effect } from "effect"
import type { Issue, StorageError } from "../kernel/errors.js"
import { BlobStore } from "../kernel/ports/blob-store.js"
import type { FormDefinition } from "./definition/definition.js"
import { ImageKeysNotOwned } from "./errors.js"
import type { FormSettings } from "./settings/settings.js"

export type ImageType = { readonly mime: string; readonly ext: string }

const startsWith = (bytes: Uint8Array, prefix: ReadonlyArray<number>, offset = 0) =>
  bytes.length >= offset + prefix.length && prefix.every((b, i) => bytes[offset + i] === b)

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0))

export const sniffImage = (bytes: Uint8Array): ImageType | undefined => {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { mime: "image/png", ext: "png" }
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { mime: "image/jpeg", ext: "jpg" }
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a")))
    return { mime: "image/gif", ext: "gif" }
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8))
    return { mime: "image/webp", ext: "webp" }
  return undefined
}

/** The content types sniffImage gives: the only types an image served to respondents may have. */
export const IMAGE_MIME_TYPES: ReadonlySet<string> = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp"
])

/** Object key of an asset: scoped by workspace and form, named by a random id. */
export const assetKey = (workspaceId: string, formId: string, assetId: string, ext: string): string =>
  `workspaces/${workspaceId}/forms/${formId}/assets/${assetId}.${ext}`

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
const ASSET_KEY_TAIL = new RegExp(`^forms/${UUID}/assets/${UUID}\\.(png|jpg|gif|webp)$`)

/**
 * Whether `key` has the shape of an asset key of this workspace (any of its forms: a copied form
 * keeps pointing at the source form's images). Respondent uploads live under `responses/`, not
 * `assets/`, so they never pass.
 */
export const isAssetKeyOf = (workspaceId: string, key: string): boolean => {
  const prefix = `workspaces/${workspaceId}/`
  return key.startsWith(prefix) && ASSET_KEY_TAIL.test(key.slice(prefix.length))
}

/** One image key in a request body, and where it sits (the issue path if it is refused). */
export interface ImageKeyRef {
  readonly path: ReadonlyArray<string | number>
  readonly key: string
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

/** Image keys of a (validated, encoded) classic definition: image blocks and choice images. */
export const definitionImageKeys = (definition: unknown): ReadonlyArray<ImageKeyRef> => {
  if (!isObject(definition) || !Array.isArray(definition.blocks)) return []
  return definition.blocks.flatMap((block: unknown, b): ReadonlyArray<ImageKeyRef> => {
    if (!isObject(block)) return []
    const own =
      typeof block.imageKey === "string"
        ? [{ path: ["definition", "blocks", b, "imageKey"], key: block.imageKey }]
        : []
    const choices =
      isObject(block.options) && Array.isArray(block.options.choices) ? block.options.choices : []
    return [
      ...own,
      ...choices.flatMap((choice: unknown, c) =>
        isObject(choice) && typeof choice.imageKey === "string"
          ? [{ path: ["definition", "blocks", b, "options", "choices", c, "imageKey"], key: choice.imageKey }]
          : []
      )
    ]
  })
}

/** Image keys of (validated, encoded) settings: the theme's logo and cover. */
export const settingsImageKeys = (settings: unknown): ReadonlyArray<ImageKeyRef> => {
  const theme = isObject(settings) && isObject(settings.theme) ? settings.theme : {}
  return (["logoKey", "coverKey"] as const).flatMap((field) => {
    const key = theme[field]
    return typeof key === "string" ? [{ path: ["settings", "theme", field], key }] : []
  })
}

/**
 * The blob keys a respondent may load for a published form: its definition's image blocks and
 * choice images and its theme's logo and cover. Every other key, however well formed, is private.
 */
export const publicImageKeys = (definition: FormDefinition, settings: FormSettings): ReadonlySet<string> =>
  new Set([...definitionImageKeys(definition), ...settingsImageKeys(settings)].map((ref) => ref.key))

/**
 * Where a respondent's page loads the image at `key` of the form at `slug`: the root-relative path
 * `/f/{slug}/images/{key}`, each segment percent-encoded (the route decodes them the same way).
 */
export const publicImageUrl = (slug: string, key: string): string =>
  `/f/${encodeURIComponent(slug)}/images/${key.split("/").map(encodeURIComponent).join("/")}`

/** Storage lookups at once: enough to overlap round trips to S3, bounded for a long definition. */
const LOOKUP_CONCURRENCY = 8

/**
 * Fails with ImageKeysNotOwned (rule `assetOwnership`, value-free) unless every key names an uploaded asset
 * of `workspaceId`: the key's shape is checked first, then the object must exist in the blob store.
 * Keys in `known` were checked when they were stored on this form, so they skip the lookup.
 */
export const checkImageOwnership = (
  workspaceId: string,
  refs: ReadonlyArray<ImageKeyRef>,
  known: ReadonlySet<string> = new Set()
): Effect.Effect<void, ImageKeysNotOwned | StorageError, BlobStore> =>
  Effect.gen(function* () {
    if (refs.length === 0) return
    const wellFormed = refs.filter((r) => isAssetKeyOf(workspaceId, r.key))
    const lookups = [...new Set(wellFormed.map((r) => r.key))].filter((k) => !known.has(k))
    const blobs = yield* BlobStore
    const found = yield* Effect.forEach(
      lookups,
      (key) => Effect.map(blobs.head(key), (head) => [key, head._tag === "Some"] as const),
      { concurrency: LOOKUP_CONCURRENCY }
    )
    const missing = new Set(found.filter(([, exists]) => !exists).map(([key]) => key))
    const issues: ReadonlyArray<Issue> = refs
      .filter((r) => !isAssetKeyOf(workspaceId, r.key) || missing.has(r.key))
      .map((r) => ({ path: r.path, rule: "assetOwnership" }))
    if (issues.length > 0) return yield* new ImageKeysNotOwned({ issues })
  })
