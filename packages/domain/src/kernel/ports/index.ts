export * from "./blob-store.js"
export * from "./id-gen.js"
export * from "./invalidation-bus.js"
export * from "./jobs.js"
