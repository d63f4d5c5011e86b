export * from "./resources.js"
