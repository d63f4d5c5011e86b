// Links of the sharing service: redirect rules, A/B variants and the decision of where a visit
// goes (used by the public redirect and by the simulate routes alike).
export * from "./destination.js"
export * from "./matching.js"
export * from "./passthrough.js"
export * from "./rules.js"
export * from "./url.js"
export * from "./variants.js"
export * from "./visit.js"
