// The deployment's public origin (PUBLIC_ORIGIN): absolute links the API hands out, such as a
// respondent file's downloadUrl, and whether the public pages' cookies are Secure.
import { Context } from "effect"

export class PublicOrigin extends Context.Service<PublicOrigin, string>()(
  "@folio/adapters-http/PublicOrigin"
) {}

/** Whether the public pages' cookies (forms and sharing alike) are Secure: decided once, from the origin. */
export const secureCookiesFor = (publicOrigin: string): boolean => publicOrigin.startsWith("https:")
