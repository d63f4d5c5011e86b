export * from "./bio.js"
export * from "./submit.js"
export * from "./use-cases.js"
