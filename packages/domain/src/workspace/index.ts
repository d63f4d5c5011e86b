export * from "./capabilities.js"
