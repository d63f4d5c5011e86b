// Ports: OAuth. The authorization server (a certified library, mounted by the HTTP adapter) keeps
// its artifacts (clients, grants, codes, tokens, interactions, sessions) in one store; the console
// lists and revokes a workspace's grants through it, and the sharing MCP endpoint verifies tokens.
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"

/**
 * One artifact of the authorization server, as its library hands it over: a model name ("Grant",
 * "AccessToken", "RefreshToken", "AuthorizationCode", "Client", "Interaction", "Session", ...), an
 * id, an opaque JSON payload, and the few fields the store indexes.
 */
export interface OAuthRecord {
  readonly model: string
  readonly id: string
  readonly payload: Readonly<Record<string, unknown>>
  /** The grant a token or code belongs to (revoking the grant removes them all). */
  readonly grantId: string | null
  /** An interaction's or session's uid. */
  readonly uid: string | null
  readonly userCode: string | null
  /** The workspace a grant (and its tokens) acts in: the console lists and revokes by it. */
  readonly tenantId: string | null
  readonly expiresAt: Date | null
  readonly consumedAt: Date | null
}

/** A grant as the console shows it (the connected apps of a workspace). */
export interface OAuthGrantSummary {
  readonly grantId: string
  readonly tenantId: string
  readonly payload: Readonly<Record<string, unknown>>
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
}

export interface OAuthStoreService {
  /** Inserts or replaces the record (same model and id); createdAt is kept on replace. */
  readonly upsert: (record: OAuthRecord, now: Date) => Effect.Effect<void, StorageError>
  /** The record unless it has expired at `now`. */
  readonly find: (
    model: string,
    id: string,
    now: Date
  ) => Effect.Effect<Option.Option<OAuthRecord>, StorageError>
  readonly findByUid: (
    model: string,
    uid: string,
    now: Date
  ) => Effect.Effect<Option.Option<OAuthRecord>, StorageError>
  readonly findByUserCode: (
    model: string,
    userCode: string,
    now: Date
  ) => Effect.Effect<Option.Option<OAuthRecord>, StorageError>
  /**
   * Marks the record consumed. Atomic: true for the one call that consumed it, false when it was
   * already consumed (or is gone), so two racing uses of one refresh token cannot both rotate it.
   */
  readonly consume: (model: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
  readonly destroy: (model: string, id: string) => Effect.Effect<void, StorageError>
  /** Removes every record of the grant (the grant itself included). */
  readonly revokeByGrantId: (grantId: string) => Effect.Effect<void, StorageError>
  /** The unexpired grants acting in the workspace, newest first. */
  readonly grantsOfTenant: (
    tenantId: string,
    now: Date
  ) => Effect.Effect<ReadonlyArray<OAuthGrantSummary>, StorageError>
  /**
   * Revokes one grant of the workspace (it and every record of it), in one transaction; false when
   * the workspace has no such grant (another workspace's grant is never touched).
   */
  readonly revokeGrantOfTenant: (tenantId: string, grantId: string) => Effect.Effect<boolean, StorageError>
  /** Records a use of the grant, writing only when the last one is older than `minIntervalMs`. */
  readonly touchGrant: (grantId: string, at: Date, minIntervalMs: number) => Effect.Effect<void, StorageError>
  /** Deletes records expired before `now`; how many. */
  readonly deleteExpired: (now: Date) => Effect.Effect<number, StorageError>
}

export class OAuthStore extends Context.Service<OAuthStore, OAuthStoreService>()(
  "@folio/domain/OAuthStore"
) {}

/** What a valid access token stands for, as the authorization server issued it. */
export interface OAuthTokenGrant {
  readonly grantId: string
  readonly clientId: string
  readonly tenantId: string
  readonly userId: string
  /** The scopes the token carries (a subset of the service's). */
  readonly scopes: ReadonlyArray<string>
}

export interface OAuthAccessTokensService {
  /**
   * The grant behind `token` when it is an unexpired, unrevoked access token issued for `resource`
   * (its audience); none otherwise (unknown, expired, revoked, or for another resource).
   */
  readonly verify: (
    token: string,
    resource: string
  ) => Effect.Effect<Option.Option<OAuthTokenGrant>, StorageError>
}

export class OAuthAccessTokens extends Context.Service<OAuthAccessTokens, OAuthAccessTokensService>()(
  "@folio/domain/OAuthAccessTokens"
) {}
