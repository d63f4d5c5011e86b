export * from "./job.js"
export * from "./outcome.js"
export * from "./runner.js"
