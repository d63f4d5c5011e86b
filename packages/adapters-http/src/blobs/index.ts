export * from "./route.js"
