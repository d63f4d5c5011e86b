export * from "./collection.js"
export * from "./items.js"
export * from "./wire.js"
