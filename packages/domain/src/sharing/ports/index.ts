export * from "./idempotency.js"
export * from "./resources.js"
