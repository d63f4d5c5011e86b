export * from "./answers.js"
export * from "./logic.js"
export * from "./scoring.js"
export * from "./presentation.js"
