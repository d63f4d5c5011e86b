export * from "./idempotency.js"
export * from "./resources.js"
export * from "./views.js"
export * from "./password-hasher.js"
