export * from "./errors.js"
export * from "./records.js"
export * from "./roles.js"
