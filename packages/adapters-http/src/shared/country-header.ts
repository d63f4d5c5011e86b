// The header a CDN in front of Folio puts the visitor's country in: the redirect's default and the
// configuration's, kept apart from the redirect's code so reading the configuration (the CLI does)
// loads none of the HTTP surface.

/** Where a CDN in front of us puts the visitor's country (Cloudflare's header; configurable). */
export const DEFAULT_COUNTRY_HEADER = "cf-ipcountry"
