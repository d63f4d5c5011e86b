export * from "./limits.js"
export * from "./paths.js"
