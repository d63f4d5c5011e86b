export * from "./resources.js"
export * from "./files.js"
