// The sharing service's domain: links, pages and (in later parts) files, artifacts, jobs, analytics
// and webhooks. It may import the kernel and identity, never forms.
export * from "./account.js"
export * from "./artifacts/index.js"
export * from "./bio/index.js"
export * from "./collections/index.js"
export * from "./errors.js"
export * from "./files/index.js"
export * from "./idempotency.js"
export * from "./links/index.js"
export * from "./ports/index.js"
export * from "./resources/index.js"
export * from "./scopes.js"
export * from "./services/index.js"
