// The authenticated caller of a request: a key of one tenant, issued for one service, with that
// service's scopes. Every use case takes the tenant from here, so tenants cannot reach each other's data.
import { Context } from "effect"
import type { ServiceName } from "./service.js"

export interface PrincipalShape {
  /** The tenant's id: a forms workspace, a sharing account. */
  readonly tenant: string
  readonly service: ServiceName
  readonly scopes: ReadonlyArray<string>
  readonly keyId: string
}

export class Principal extends Context.Service<Principal, PrincipalShape>()("@folio/domain/Principal") {}

/** The scopes of `required` the principal lacks (empty when allowed). */
export const missingScopes = (
  principal: PrincipalShape,
  required: ReadonlyArray<string>
): ReadonlyArray<string> => required.filter((scope) => !principal.scopes.includes(scope))
