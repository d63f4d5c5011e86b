export * from "./api-keys.js"
export * from "./rate-limit-store.js"
export * from "./tenants.js"
export * from "./usage.js"
