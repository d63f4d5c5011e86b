export * from "./resources.js"
export * from "./files.js"
export * from "./collections.js"
export * from "./bio.js"
