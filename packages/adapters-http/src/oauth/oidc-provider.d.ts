// The part of oidc-provider's API this adapter uses, typed (the package ships no declarations).
// Kept to what the code calls, so a library upgrade that changes one of them fails the typecheck
// here rather than at runtime somewhere else.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http"

  type Json = Record<string, unknown>

  export interface InteractionDetails {
    readonly uid: string
    readonly prompt: { readonly name: string; readonly reasons: ReadonlyArray<string> }
    readonly params: Readonly<Record<string, unknown>>
    readonly session?: { readonly accountId?: string } | undefined
    readonly exp: number
  }

  export interface ClientInstance {
    readonly clientId: string
    readonly clientName?: string | undefined
    readonly redirectUris?: ReadonlyArray<string> | undefined
    metadata(): Json
  }

  export interface AccessTokenInstance {
    readonly jti: string
    readonly accountId?: string | undefined
    readonly clientId?: string | undefined
    readonly grantId?: string | undefined
    readonly scope?: string | undefined
    readonly aud?: string | ReadonlyArray<string> | undefined
    readonly isExpired: boolean
    readonly isValid: boolean
  }

  export interface GrantInstance {
    readonly jti: string
    addResourceScope(resource: string, scope: string): void
    addOIDCScope(scope: string): void
    rejectResourceScope(resource: string, scope: string): void
    rejectOIDCScope(scope: string): void
    save(): Promise<string>
  }

  export interface GrantModel {
    new (properties: { accountId: string; clientId: string }): GrantInstance
    find(id: string): Promise<GrantInstance | undefined>
  }

  export class Provider {
    constructor(issuer: string, configuration: Json)
    proxy: boolean
    readonly issuer: string
    readonly Grant: GrantModel
    readonly AccessToken: { find(value: string): Promise<AccessTokenInstance | undefined> }
    readonly Client: { find(id: string): Promise<ClientInstance | undefined> }
    callback(): (req: IncomingMessage, res: ServerResponse) => void
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: Json,
      options?: { mergeWithLastSubmission?: boolean }
    ): Promise<string>
    on(event: string, listener: (...args: ReadonlyArray<unknown>) => void): this
  }

  type OidcError = new (description?: string, detail?: string) => Error
  export const errors: {
    readonly InvalidGrant: OidcError
    readonly InvalidTarget: OidcError
    readonly AccessDenied: OidcError
    readonly InvalidClientMetadata: OidcError
  }
  export default Provider
}
