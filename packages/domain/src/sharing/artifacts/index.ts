// HTML artifacts: their limits, file paths, deploys (create, redeploy, patch) and the owner's reads.
export * from "./deploy.js"
export * from "./limits.js"
export * from "./paths.js"
export * from "./use-cases.js"
