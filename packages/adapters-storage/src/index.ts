// @folio/adapters-storage: repositories and counters over PostgreSQL, embedded PGlite or memory,
// blob stores over the filesystem, S3 or memory, and the in-process runtime adapters (runtime/).
export * from "./blob/index.js"
export * from "./health.js"
export * from "./interviewer/openai-compatible.js"
export * from "./media/media-tools.js"
export * from "./media/zip-archives.js"
export * from "./memory/index.js"
export * from "./runtime/index.js"
export * from "./sql/index.js"
export * from "./notion/notion-client-source.js"
export * from "./webhooks/https-sender.js"
