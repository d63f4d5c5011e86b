export * from "./resources.js"
export * from "./files.js"
export * from "./collections.js"
