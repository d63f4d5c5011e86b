// Notion mirrors: the normalized page tree a refresh reads from Notion, and its HTML rendering.
// Pure: the port that talks to Notion lives in ../ports/notion-source.ts.
export * from "./blocks.js"
export * from "./render.js"
export * from "./mirror.js"
export * from "./feature.js"
export * from "./wire.js"
