// The sharing service's domain: links so far (resources, pages and the rest join here).
export * from "./links/index.js"
