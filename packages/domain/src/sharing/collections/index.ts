// Collections: galleries of copied files, their rules and the owner's item use cases.
export * from "./collection.js"
export * from "./use-cases.js"
export * from "./wire.js"
