export * from "./fs.js"
export * from "./memory.js"
export * from "./s3.js"
