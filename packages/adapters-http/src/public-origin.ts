// The deployment's public origin (PUBLIC_ORIGIN), for absolute links the API hands out, such as a
// respondent file's downloadUrl.
import { Context } from "effect"

export class PublicOrigin extends Context.Service<PublicOrigin, string>()(
  "@folio/adapters-http/PublicOrigin"
) {}
