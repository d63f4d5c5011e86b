export * from "./media-types.js"
export * from "./preview.js"
export * from "./upload.js"
export * from "./upload-fields.js"
