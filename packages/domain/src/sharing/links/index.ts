// Links of the sharing service: redirect rules, A/B variants, the decision of where a visit goes
// (the public redirect's and the simulate routes') and the public-visit decision of /s/{slug}.
export * from "./destination.js"
export * from "./matching.js"
export * from "./passthrough.js"
export * from "./public-visit.js"
export * from "./rules.js"
export * from "./url.js"
export * from "./variants.js"
export * from "./visit.js"
export * from "./visitor-cookies.js"
