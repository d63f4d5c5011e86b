// @folio/domain: the pure core. Imports only `effect` and small pure libraries (see DESIGN.md).
export * from "./auth/index.js"
export * from "./forms/index.js"
export * from "./kernel/index.js"
export * from "./ports/index.js"
export * from "./workspace/index.js"
