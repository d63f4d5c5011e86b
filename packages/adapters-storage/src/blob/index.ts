export * from "./fs.js"
export * from "./memory.js"
