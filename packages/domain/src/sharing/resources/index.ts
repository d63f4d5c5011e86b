export * from "./resource.js"
export * from "./rules.js"
export * from "./use-cases.js"
export * from "./wire.js"
