// The in-process runtime adapters of the domain's ports: what exists for speed or needs the
// platform (caches of keys and stored documents, buffered counters and their flush fibers, ids).
export * from "./buffered-rate-limit-store.js"
export * from "./cached-api-key-repository.js"
export * from "./id-gen.js"
export * from "./usage-batcher.js"
export * from "./json-schema-shape-check.js"
export * from "./cached-stored-form-documents.js"
export * from "./view-batcher.js"
export * from "./cached-resource-repository.js"
export * from "./scrypt-password-hasher.js"
export * from "./idempotency-housekeeping.js"
export * from "./job-worker.js"
