// Connected apps from the console: the OAuth grants acting in a workspace (who let which app do what,
// when, and its last use) and revoking one. Owners and admins see and revoke every grant of the
// workspace, members only their own; a revocation is audited, never with a token in it.
import { Effect, Option } from "effect"
import { NamedError, type StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import { type OAuthGrantSummary, OAuthStore } from "../ports/oauth.js"
import { type AuditLog, UserRepository } from "../ports/people.js"
import { audit } from "./audit.js"
import { NotAllowed } from "./errors.js"
import { authorize, type ConsoleActor } from "./roles.js"
import { now } from "./secrets.js"

/** No grant of that id acts in the workspace (unknown, expired, revoked, or another workspace's). */
export class ConnectedAppNotFound extends NamedError("ConnectedAppNotFound", "no such connected app") {}

/** One app a person connected to the workspace, as the console lists it. */
export interface ConnectedApp {
  readonly grantId: string
  readonly clientId: string
  /** The client's registered name, or its id when it has none (a metadata document's URL). */
  readonly clientName: string
  /** What the app may do: the sharing scopes the person granted. */
  readonly scopes: ReadonlyArray<string>
  readonly grantedAt: Date
  readonly lastUsedAt: Date | null
  /** Null when the grant lapses only with its refresh tokens. */
  readonly expiresAt: Date | null
  readonly userId: string
  /** The person's e-mail; null when the account is gone. */
  readonly email: string | null
}

const stringOf = (value: unknown): string | null => (typeof value === "string" ? value : null)

/** The grant's person: the account id is `${tenantId}:${userId}`. */
const userIdOf = (accountId: string | null, tenantId: string): string | null =>
  accountId?.startsWith(`${tenantId}:`) ? accountId.slice(tenantId.length + 1) : null

/** Every scope the grant gives, over all its resources (oidc-provider keeps them space-separated). */
const scopesOf = (payload: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const resources = payload.resources
  const lists =
    typeof resources === "object" && resources !== null
      ? Object.values(resources as Record<string, unknown>).flatMap((v) => (typeof v === "string" ? [v] : []))
      : []
  return [...new Set(lists.flatMap((list) => list.split(" ")).filter((s) => s.length > 0))]
}

const expiryOf = (payload: Readonly<Record<string, unknown>>): Date | null =>
  typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null

/** The grants of the workspace the actor may see, with their person's id. */
const visibleGrants = (actor: ConsoleActor) =>
  Effect.gen(function* () {
    const grants = yield* (yield* OAuthStore).grantsOfTenant(actor.tenantId, yield* now)
    return grants.flatMap((grant) => {
      const userId = userIdOf(stringOf(grant.payload.accountId), actor.tenantId)
      if (userId === null || (actor.role === "member" && userId !== actor.userId)) return []
      return [{ grant, userId }]
    })
  })

/**
 * The record of the name a client gave at consent. Clients registered over DCR are stored with their
 * metadata; a metadata-document client is not (its document is fetched, not registered), so the name
 * it showed the person is kept here, for as long as a grant may live.
 */
const CLIENT_NAME_MODEL = "ClientName"
const CLIENT_NAME_TTL_MS = 365 * 24 * 60 * 60 * 1000

/** Remembers the name a client showed at consent, so Connected apps shows it too. */
export const rememberClientName = (
  clientId: string,
  clientName: string
): Effect.Effect<void, StorageError, OAuthStore> =>
  Effect.gen(function* () {
    const name = clientName.trim().slice(0, 200)
    if (clientId === "" || name === "" || name === clientId) return
    const at = yield* now
    yield* (yield* OAuthStore).upsert(
      {
        model: CLIENT_NAME_MODEL,
        id: clientId,
        payload: { client_name: name },
        grantId: null,
        uid: null,
        userCode: null,
        tenantId: null,
        expiresAt: new Date(at.getTime() + CLIENT_NAME_TTL_MS),
        consumedAt: null
      },
      at
    )
  })

const nameIn = (record: Option.Option<{ readonly payload: Readonly<Record<string, unknown>> }>) => {
  const name = Option.getOrNull(Option.map(record, (r) => stringOf(r.payload.client_name)))
  return name !== null && name.trim() !== "" ? name : null
}

/** The client's registered name, else the name it showed at consent, else its id. */
const clientNameOf = (clientId: string) =>
  Effect.gen(function* () {
    if (clientId === "") return ""
    const store = yield* OAuthStore
    const at = yield* now
    return (
      nameIn(yield* store.find("Client", clientId, at)) ??
      nameIn(yield* store.find(CLIENT_NAME_MODEL, clientId, at)) ??
      clientId
    )
  })

const connectedApp = (grant: OAuthGrantSummary, userId: string, clientName: string, email: string | null) =>
  ({
    grantId: grant.grantId,
    clientId: stringOf(grant.payload.clientId) ?? "",
    clientName,
    scopes: scopesOf(grant.payload),
    grantedAt: grant.createdAt,
    lastUsedAt: grant.lastUsedAt,
    expiresAt: expiryOf(grant.payload),
    userId,
    email
  }) satisfies ConnectedApp

/** The apps connected to the workspace, newest first: all of them for owners and admins, a member's own. */
export const listConnectedApps = (
  actor: ConsoleActor
): Effect.Effect<ReadonlyArray<ConnectedApp>, NotAllowed | StorageError, OAuthStore | UserRepository> =>
  Effect.gen(function* () {
    yield* authorize(actor, "listConnectedApps")
    const grants = yield* visibleGrants(actor)
    const users = yield* UserRepository
    const emails = new Map<string, string | null>()
    for (const id of new Set(grants.map((g) => g.userId)))
      emails.set(id, Option.getOrNull(Option.map(yield* users.get(id), (u) => u.email)))
    const names = new Map<string, string>()
    for (const id of new Set(grants.map((g) => stringOf(g.grant.payload.clientId) ?? "")))
      names.set(id, yield* clientNameOf(id))
    return grants.map(({ grant, userId }) => {
      const clientId = stringOf(grant.payload.clientId) ?? ""
      return connectedApp(grant, userId, names.get(clientId) ?? clientId, emails.get(userId) ?? null)
    })
  })

/**
 * Revokes one connected app of the workspace: the grant and every token and code of it, so the app's
 * next call is refused. Owners and admins any; members only the apps they connected.
 */
export const revokeConnectedApp = (
  actor: ConsoleActor,
  grantId: string
): Effect.Effect<
  void,
  NotAllowed | ConnectedAppNotFound | StorageError,
  OAuthStore | UserRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "revokeConnectedApp")
    const store = yield* OAuthStore
    const grants = yield* store.grantsOfTenant(actor.tenantId, yield* now)
    const grant = grants.find((g) => g.grantId === grantId)
    if (grant === undefined) return yield* new ConnectedAppNotFound()
    const userId = userIdOf(stringOf(grant.payload.accountId), actor.tenantId)
    if (actor.role === "member" && userId !== actor.userId)
      return yield* new NotAllowed({ operation: "revokeConnectedApp" })
    const clientId = stringOf(grant.payload.clientId) ?? ""
    const clientName = yield* clientNameOf(clientId)
    const email =
      userId === null
        ? null
        : Option.getOrNull(Option.map(yield* (yield* UserRepository).get(userId), (u) => u.email))
    if (!(yield* store.revokeGrantOfTenant(actor.tenantId, grantId))) return yield* new ConnectedAppNotFound()
    yield* audit(actor.tenantId, {
      action: "app.revoked",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: grantId,
      ip: actor.ip,
      // The same facts as app.authorized's (service, client name, scopes) plus the client id and
      // whose grant it was (the person revoking may be an admin, not the one who connected it).
      details: {
        service: "sharing",
        client: clientName.slice(0, 200),
        clientId: clientId.slice(0, 500),
        scopes: scopesOf(grant.payload).join(","),
        connectedBy: email ?? userId
      }
    })
  })
