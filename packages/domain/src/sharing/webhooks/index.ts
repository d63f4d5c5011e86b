// Webhooks: endpoints, events, signatures, the outbound address rule and the delivery job.
export * from "./address.js"
export * from "./delivery-job.js"
export * from "./signature.js"
export * from "./use-cases.js"
export * from "./webhook.js"
export * from "./wire.js"
export * from "./events.js"
