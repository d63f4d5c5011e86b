export * from "./settings.js"
