// The authenticated caller of a request: a key of one workspace with its scopes. Every use case
// takes the workspace from here, so tenants cannot reach each other's data.
import { Context } from "effect"

export interface PrincipalShape {
  readonly workspaceId: string
  readonly keyId: string
  readonly scopes: ReadonlyArray<string>
}

export class Principal extends Context.Service<Principal, PrincipalShape>()("@folio/domain/Principal") {}

/** The scopes of `required` the principal lacks (empty when allowed). */
export const missingScopes = (
  principal: PrincipalShape,
  required: ReadonlyArray<string>
): ReadonlyArray<string> => required.filter((scope) => !principal.scopes.includes(scope))
