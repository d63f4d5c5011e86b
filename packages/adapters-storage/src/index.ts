// @folio/adapters-storage: repositories and counters over PostgreSQL, embedded PGlite or memory,
// blob stores over the filesystem, S3 or memory, and the in-process runtime adapters (runtime/).
export * from "./blob/index.js"
export * from "./health.js"
export * from "./memory/index.js"
export * from "./runtime/index.js"
export * from "./sql/index.js"
