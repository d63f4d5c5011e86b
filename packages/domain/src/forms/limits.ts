// The forms service's size and page limits (forms-api.md, "Limits"), each written once: the domain
// enforces them, and the HTTP and MCP adapters derive their body caps, schemas and defaults from them.

const MIB = 1024 * 1024

/** JSON request bodies (REST and MCP alike). */
export const MAX_REQUEST_BODY_BYTES = 1 * MIB

/** One authoring image upload. */
export const MAX_ASSET_BYTES = 5 * MIB

/** The largest `maxSizeMb` a file_upload block may declare. */
export const MAX_FILE_UPLOAD_SIZE_MB = 25

/** Bytes a file_upload block's `maxSizeMb` allows. */
export const fileUploadBytes = (maxSizeMb: number): number => maxSizeMb * MIB

/** The largest upload any block can allow; the HTTP body cap follows it. */
export const MAX_RESPONDENT_FILE_BYTES = fileUploadBytes(MAX_FILE_UPLOAD_SIZE_MB)

/** List page sizes: the default per list, and the cap on any `limit`. */
export const PAGE_SIZE = { forms: 20, versions: 20, responses: 50, max: 100 } as const
