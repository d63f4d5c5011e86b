export * from "./upload-request.js"
export * from "./use-cases.js"
export * from "./submit.js"
