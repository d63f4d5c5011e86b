// The records oidc-provider writes for a consent (the grant and a token of it) and a registered
// client, shaped as the OAuth store receives them: tests seed connected apps with these.
import type { OAuthRecord } from "@folio/domain"

/** A registered client with a name (DCR); a metadata-document client has none stored by name. */
export const clientRecord = (clientId: string, clientName: string): OAuthRecord => ({
  model: "Client",
  id: clientId,
  payload: { client_id: clientId, client_name: clientName },
  grantId: null,
  uid: null,
  userCode: null,
  tenantId: null,
  expiresAt: null,
  consumedAt: null
})

/** The records oidc-provider writes for one consent: the grant (and a token of it), as the store gets them. */
export const grantRecords = (input: {
  readonly grantId: string
  readonly tenantId: string
  readonly userId: string
  readonly clientId: string
  readonly scopes: string
  readonly resource?: string
  readonly expiresAt?: Date | null
}): ReadonlyArray<OAuthRecord> => {
  const resource = input.resource ?? "http://localhost:8080/share/mcp"
  const accountId = `${input.tenantId}:${input.userId}`
  const expiresAt = input.expiresAt ?? null
  const iat = Math.floor(Date.now() / 1000)
  return [
    {
      model: "Grant",
      id: input.grantId,
      payload: {
        accountId,
        clientId: input.clientId,
        resources: { [resource]: input.scopes },
        iat,
        ...(expiresAt === null ? {} : { exp: Math.floor(expiresAt.getTime() / 1000) }),
        jti: input.grantId,
        kind: "Grant"
      },
      grantId: input.grantId,
      uid: null,
      userCode: null,
      tenantId: input.tenantId,
      expiresAt,
      consumedAt: null
    },
    {
      model: "AccessToken",
      id: `at-${input.grantId}`,
      payload: {
        accountId,
        clientId: input.clientId,
        grantId: input.grantId,
        scope: input.scopes,
        kind: "AccessToken"
      },
      grantId: input.grantId,
      uid: null,
      userCode: null,
      tenantId: input.tenantId,
      expiresAt: null,
      consumedAt: null
    }
  ]
}
