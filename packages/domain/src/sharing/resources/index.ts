// Sharing resources: the record every type shares, its rules, wire schemas and the owner's use cases.
export * from "./bulk.js"
export * from "./import.js"
export * from "./link-simulation.js"
export * from "./markdown-versions.js"
export * from "./resource.js"
export * from "./rules.js"
export * from "./use-cases.js"
export * from "./wire.js"
