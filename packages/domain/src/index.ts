// @folio/domain: the pure core. Imports only `effect` and small pure libraries (see DESIGN.md).
// One folder per bounded context: kernel (shared by every service), identity, forms, sharing.
export * from "./forms/index.js"
export * from "./identity/index.js"
export * from "./kernel/index.js"
export * from "./sharing/index.js"
