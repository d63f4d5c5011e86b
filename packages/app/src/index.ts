// @folio/app: configuration and the composed application layer, for `main`, the CLI and tests.
export * from "./app-layer.js"
export * from "./config.js"
export * from "./job-runner.js"
export * from "./storage.js"
export { jsonWithTraceIds } from "./logging.js"
export { ObserverThread, ObserverThreadLive } from "./observer-thread.js"
export * from "./telemetry.js"
