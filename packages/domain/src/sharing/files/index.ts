// File and image resources: allowed media types, streamed uploads, previews and optimize-original.
export * from "./media-types.js"
export * from "./preview.js"
export * from "./upload.js"
export * from "./upload-fields.js"
export * from "./optimize.js"
