export * from "./collection.js"
export * from "./use-cases.js"
export * from "./wire.js"
