export * from "./resource.js"
export * from "./rules.js"
