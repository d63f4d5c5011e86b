export * from "./definition.js"
export * from "./interviewer.js"
export * from "./rules.js"
export * from "./deterministic-interviewer.js"
