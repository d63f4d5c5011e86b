export * from "./Http.js"
