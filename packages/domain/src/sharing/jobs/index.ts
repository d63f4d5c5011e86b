export * from "./types.js"
export * from "./use-cases.js"
export * from "./wire.js"
