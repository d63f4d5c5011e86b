// @folio/adapters-http/shared: what every service's HTTP surface shares, written once and
// parameterised by the service's error table and envelope: bearer auth with its budget headers and
// usage, the request guard (request id, body caps, unstorable text, decode errors as issues), and the
// escaping HTML tagged template of the public pages.
export * from "./bearer-auth.js"
export * from "./country-header.js"
export * from "./decode-issues.js"
export * from "./error-surface.js"
export * from "./html.js"
export * from "./keyed-endpoints.js"
export * from "./openapi-publish.js"
export * from "./rate-limit-headers.js"
export * from "./request-errors.js"
export * from "./request-guard.js"
export * from "./secret-urls.js"
export * from "./metrics.js"
export * from "./oauth-bearer.js"
export * from "./protected-resource.js"
export * from "./random-text.js"
