// Where the forms service keeps blobs, read back from a key: a respondent's file (named by its
// response_files row) or an authoring image (named by any form of its workspace, copies included).
// The blob check and the orphan sweep (kernel/ports/blob-references.ts) place keys with these.

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
const RESPONSE_FILE = new RegExp(`^workspaces/(${UUID})/forms/(${UUID})/responses/(${UUID})/[^/]+$`)
const ASSET = new RegExp(`^workspaces/(${UUID})/forms/(${UUID})/assets/[^/]+$`)

export type FormsBlobKey =
  | { readonly kind: "responseFile"; readonly responseId: string }
  | { readonly kind: "asset"; readonly workspaceId: string }

/** What a forms key is, or undefined when it is not one of the forms service's shapes. */
export const formsBlobKeyOf = (key: string): FormsBlobKey | undefined => {
  const file = RESPONSE_FILE.exec(key)
  if (file?.[3] !== undefined) return { kind: "responseFile", responseId: file[3] }
  const asset = ASSET.exec(key)
  if (asset?.[1] !== undefined) return { kind: "asset", workspaceId: asset[1] }
  return undefined
}

/** The properties a definition or settings object names an image by (blocks, choices, logo, cover). */
const IMAGE_PROPERTIES: ReadonlySet<string> = new Set(["imageKey", "logoKey", "coverKey"])

/**
 * Every image key a stored definition or settings value names, wherever it sits: read by property
 * name rather than by schema, so a block type added later is covered and an old row still counts.
 */
export const storedFormImageKeys = (stored: unknown): ReadonlyArray<string> => {
  const keys: Array<string> = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (typeof value === "object" && value !== null)
      for (const [name, inner] of Object.entries(value)) {
        if (typeof inner === "string" && IMAGE_PROPERTIES.has(name)) keys.push(inner)
        else walk(inner)
      }
  }
  walk(stored)
  return keys
}
