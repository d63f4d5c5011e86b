// Bio pages: the profile and pages, the owner's use cases and a visitor's form answers.
export * from "./bio.js"
export * from "./submit.js"
export * from "./use-cases.js"
