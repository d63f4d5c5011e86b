// @folio/adapters-integrations: the outbound adapters that are not storage, one folder per service
// Folio talks to: an OpenAI-compatible model API, Notion, webhook receivers, SMTP, media libraries, GeoIP,
// and the WebAuthn library behind passkeys.
export * from "./geoip/geoip-country.js"
export * from "./interviewer/openai-compatible.js"
export * from "./media/media-tools.js"
export * from "./media/zip-archives.js"
export * from "./notion/notion-client-source.js"
export * from "./webhooks/https-sender.js"
export * from "./outbound/safe-fetch.js"
export * from "./mail/index.js"
export * from "./passkeys/simplewebauthn-ceremony.js"
