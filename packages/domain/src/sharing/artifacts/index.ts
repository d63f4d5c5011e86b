export * from "./deploy.js"
export * from "./limits.js"
export * from "./paths.js"
export * from "./use-cases.js"
