export * from "./blob-store.js"
export * from "./id-gen.js"
