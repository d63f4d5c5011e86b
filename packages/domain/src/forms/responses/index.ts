export * from "./answers.js"
export * from "./logic.js"
