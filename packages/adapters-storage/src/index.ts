// @folio/adapters-storage: repositories and counters over PostgreSQL, embedded PGlite or memory,
// and blob stores over the filesystem, S3 or memory.
export * from "./blob/index.js"
export * from "./health.js"
export * from "./memory/index.js"
export * from "./sql/index.js"
