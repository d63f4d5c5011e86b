// Notion mirrors: the normalized page tree, its HTML rendering, the owner's use cases and the refresh
// job. The port that talks to Notion lives in ../ports/notion-source.ts.
export * from "./blocks.js"
export * from "./render.js"
export * from "./use-cases.js"
export * from "./refresh-job.js"
export * from "./feature.js"
export * from "./wire.js"
