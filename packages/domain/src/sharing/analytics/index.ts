// Sharing analytics: ranges, rollups, the visit that is recorded, and the owner's reads and exports.
export * from "./range.js"
export * from "./rollup.js"
export * from "./use-cases.js"
export * from "./visit.js"
export * from "./wire.js"
