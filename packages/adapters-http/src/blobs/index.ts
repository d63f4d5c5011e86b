// Downloads behind locally signed, expiring blob URLs (the filesystem and memory blob stores).
export * from "./Http.js"
