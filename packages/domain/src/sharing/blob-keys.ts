// Where the sharing service keeps blobs: every one under its resource's prefix
// (`sharing/{tenant}/{resource}/`), named by the live resource's data (a file, an image and its
// optimized variant, collection copies, bio media), its artifact deployments (objects by digest),
// its Notion assets, or drawn from it (previews). The blob check and the orphan sweep use these.
import { artifactObjectKey } from "./artifacts/deploy.js"

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
const RESOURCE_KEY = new RegExp(`^sharing/(${UUID})/(${UUID})/(.+)$`)

/** The resource a sharing key belongs to, and the rest of the key; undefined for another shape. */
export const sharingBlobKeyOf = (
  key: string
): { readonly tenantId: string; readonly resourceId: string; readonly rest: string } | undefined => {
  const match = RESOURCE_KEY.exec(key)
  return match?.[1] === undefined || match[2] === undefined || match[3] === undefined
    ? undefined
    : { tenantId: match[1], resourceId: match[2], rest: match[3] }
}

/**
 * A preview drawn from a live resource (sharing/files/preview.ts): a cache named by nothing, kept
 * while its resource lives (deleting the resource deletes it), so the sweep never redraws it daily.
 */
export const isPreviewRest = (rest: string): boolean => /^previews\/[^/]+$/.test(rest)

/** Every `blobKey` a resource's stored data names, wherever it sits (StoredFile, in any type). */
export const storedResourceBlobKeys = (data: unknown): ReadonlyArray<string> => {
  const keys: Array<string> = []
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const item of value) walk(item)
    else if (typeof value === "object" && value !== null)
      for (const [name, inner] of Object.entries(value)) {
        if (typeof inner === "string" && name === "blobKey") keys.push(inner)
        else walk(inner)
      }
  }
  walk(data)
  return keys
}

/** The objects an artifact deployment's file list names (each file by its digest). */
export const deploymentBlobKeys = (
  owner: { readonly tenantId: string; readonly id: string },
  files: ReadonlyArray<{ readonly sha256: string }>
): ReadonlyArray<string> => files.map((file) => artifactObjectKey(owner, file.sha256))
