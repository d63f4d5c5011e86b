// @folio/adapters-integrations/mail: the mailers alone, for the CLI, which sends the owner's sign-in
// links and needs none of the other services' libraries (WebAuthn, sharp, Notion, GeoIP).
export * from "./smtp-mailer.js"
export * from "./memory-mailer.js"
