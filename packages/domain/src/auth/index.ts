export * from "./api-key.js"
export * from "./scopes.js"
