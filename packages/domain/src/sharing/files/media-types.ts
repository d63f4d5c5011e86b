// What uploads may hold: the allowed media types, told from the content (a sniffer reads the magic
// numbers; what it does not know is text when it is UTF-8 without NUL), and which of them are images.
// The client's Content-Type and file name never decide a type.

/** Bytes the sniffer reads from the start of an upload (the most any known signature needs). */
export const SNIFF_BYTES = 4100

/** Images: shown inline on their page, thumbnailed for previews. */
export const IMAGE_MEDIA_TYPES: ReadonlyArray<string> = [
  "image/jpeg",
  "image/png",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/heic",
  "image/heif",
  "image/bmp",
  "image/tiff"
]

/** Everything else an upload may be: documents, archives, audio, video and plain text. */
export const FILE_MEDIA_TYPES: ReadonlyArray<string> = [
  "application/pdf",
  "application/zip",
  "application/gzip",
  "application/x-7z-compressed",
  "application/x-tar",
  "application/epub+zip",
  "application/rtf",
  "application/msword",
  "application/vnd.ms-excel",
  "application/vnd.ms-powerpoint",
  "application/x-cfb",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.oasis.opendocument.text",
  "application/vnd.oasis.opendocument.spreadsheet",
  "application/vnd.oasis.opendocument.presentation",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/flac",
  "audio/aac",
  "audio/mp4",
  "audio/x-m4a",
  "audio/webm",
  "video/mp4",
  "video/webm",
  "video/quicktime",
  "video/ogg",
  "video/x-m4v",
  "text/plain"
]

/** Types served inline (they cannot run script on our origin); every other is an attachment. */
export const INLINE_MEDIA_TYPES: ReadonlyArray<string> = [
  ...IMAGE_MEDIA_TYPES.filter((t) => t !== "image/heic" && t !== "image/heif" && t !== "image/tiff"),
  "text/plain",
  "audio/mpeg",
  "audio/ogg",
  "audio/wav",
  "audio/flac",
  "audio/aac",
  "audio/mp4",
  "audio/webm",
  "video/mp4",
  "video/webm",
  "video/ogg"
]

export type MediaKind = "image" | "file"

/** The kind of an allowed type. */
export const mediaKindOf = (contentType: string): MediaKind =>
  IMAGE_MEDIA_TYPES.includes(contentType) ? "image" : "file"

const utf8 = new TextDecoder("utf-8", { fatal: true })

/**
 * Whether the first bytes read as text: valid UTF-8 (a character cut by the end of the head is fine)
 * with no NUL and few control characters.
 */
export const looksLikeText = (head: Uint8Array): boolean => {
  if (head.byteLength === 0) return false
  let controls = 0
  for (const byte of head) {
    if (byte === 0) return false
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) controls++
  }
  if (controls > head.byteLength / 100) return false
  try {
    // The last three bytes may be a cut character: decode without them when the whole fails.
    utf8.decode(head)
    return true
  } catch {
    for (let cut = 1; cut <= 3 && cut < head.byteLength; cut++) {
      try {
        utf8.decode(head.subarray(0, head.byteLength - cut))
        return true
      } catch {}
    }
    return false
  }
}

/**
 * The allowed type of content whose first bytes are `head` and which the sniffer recognised as
 * `sniffed` (undefined when it knew no signature); undefined when the content is not allowed.
 */
export const allowedMediaType = (head: Uint8Array, sniffed: string | undefined): string | undefined => {
  if (sniffed !== undefined)
    return IMAGE_MEDIA_TYPES.includes(sniffed) || FILE_MEDIA_TYPES.includes(sniffed) ? sniffed : undefined
  return looksLikeText(head) ? "text/plain" : undefined
}

/** Longest file name kept (bytes of UTF-16 are close enough for a display name). */
export const MAX_FILE_NAME_LENGTH = 255

/**
 * The uploader's file name as we keep it: the last path segment (browsers on Windows send
 * `C:\fakepath\x`), without control characters, trimmed, at most 255 characters; `file` when
 * nothing is left.
 */
export const fileNameOf = (raw: string | undefined): string => {
  const last = (raw ?? "").split(/[/\\]/).pop() ?? ""
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, "").trim()
  const name = clean === "." || clean === ".." ? "" : clean
  return name === "" ? "file" : [...name].slice(0, MAX_FILE_NAME_LENGTH).join("")
}
