// The sharing service's jobs: their types, wire views and the owner's job use cases.
export * from "./types.js"
export * from "./use-cases.js"
export * from "./wire.js"
