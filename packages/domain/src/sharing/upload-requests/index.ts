// Upload requests: the request, the owner's use cases and a sender's submission.
export * from "./upload-request.js"
export * from "./use-cases.js"
export * from "./submit.js"
export * from "./wire.js"
