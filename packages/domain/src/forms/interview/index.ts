export * from "./definition.js"
