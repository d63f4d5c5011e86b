// Authoring image uploads: the type is decided by the file's leading bytes, never by the client's
// claim, and only PNG, JPEG, GIF and WebP up to 5 MiB are accepted.
export const MAX_ASSET_BYTES = 5 * 1024 * 1024

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

/** Object key of an asset: scoped by workspace and form, named by a random id. */
export const assetKey = (workspaceId: string, formId: string, assetId: string, ext: string): string =>
  `workspaces/${workspaceId}/forms/${formId}/assets/${assetId}.${ext}`
