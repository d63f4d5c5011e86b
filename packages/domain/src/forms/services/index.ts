export * from "./authoring.js"
export * from "./responses.js"
export * from "./respondent.js"
export * from "./live.js"
