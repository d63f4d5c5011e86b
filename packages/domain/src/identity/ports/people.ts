// Ports: people. Accounts, memberships, console sessions, passkeys, one-time links and the audit log.
// Every method that reads a workspace's data takes its tenant id; writes whose outcome depends on
// what they read (the last owner, single-use links) are atomic in the adapter, not read-then-write
// in the use case.
import { Context, type Effect, type Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type {
  AuditEventRecord,
  MembershipRecord,
  MemberView,
  OneTimeTokenKind,
  OneTimeTokenRecord,
  PasskeyRecord,
  SessionRecord,
  UserRecord,
  WorkspaceMembershipView
} from "../people/records.js"
import type { Role } from "../people/roles.js"

/**
 * What a change to a person's ways of signing in did: `last_method` = refused, it would leave the
 * account no password and no passkey.
 */
export type SignInMethodChange = "changed" | "not_found" | "last_method"

export interface UserRepositoryService {
  /** false when the e-mail is taken (nothing written). */
  readonly create: (user: UserRecord) => Effect.Effect<boolean, StorageError>
  readonly get: (id: string) => Effect.Effect<Option.Option<UserRecord>, StorageError>
  /** By normalised e-mail. */
  readonly findByEmail: (email: string) => Effect.Effect<Option.Option<UserRecord>, StorageError>
  readonly setDisplayName: (id: string, displayName: string) => Effect.Effect<boolean, StorageError>
  readonly setPasswordHash: (id: string, hash: string | null) => Effect.Effect<boolean, StorageError>
  readonly count: Effect.Effect<number, StorageError>
  /**
   * Removes the password unless the account has no passkey; atomic with deleteKeepingSignIn (both
   * lock the account), so removing the password and the last passkey at once cannot both happen.
   */
  readonly removePasswordKeepingSignIn: (id: string) => Effect.Effect<SignInMethodChange, StorageError>
}

export class UserRepository extends Context.Service<UserRepository, UserRepositoryService>()(
  "@folio/domain/UserRepository"
) {}

/** What a conditional membership change did. */
export type MembershipChange = "changed" | "not_found" | "last_owner"

export interface MembershipRepositoryService {
  /** false when the person is already a member (nothing written). */
  readonly add: (membership: MembershipRecord) => Effect.Effect<boolean, StorageError>
  /**
   * Creates the account and its first membership in one transaction (an accepted invitation or
   * setup link): false when the e-mail is taken, and then neither is written.
   */
  readonly addWithNewUser: (
    user: UserRecord,
    membership: MembershipRecord
  ) => Effect.Effect<boolean, StorageError>
  readonly get: (
    tenantId: string,
    userId: string
  ) => Effect.Effect<Option.Option<MembershipRecord>, StorageError>
  /** Every member of the workspace with name and e-mail, owners first, then by e-mail. */
  readonly listByTenant: (tenantId: string) => Effect.Effect<ReadonlyArray<MemberView>, StorageError>
  /** Every workspace the person belongs to, by workspace name. */
  readonly listByUser: (userId: string) => Effect.Effect<ReadonlyArray<WorkspaceMembershipView>, StorageError>
  /**
   * Sets the role unless that takes the workspace's last owner away; atomic (under a lock on the
   * workspace), so two owners demoting each other at once leave one.
   */
  readonly setRole: (
    tenantId: string,
    userId: string,
    role: Role
  ) => Effect.Effect<MembershipChange, StorageError>
  /** Removes the membership unless it is the last owner's; atomic like setRole. */
  readonly remove: (tenantId: string, userId: string) => Effect.Effect<MembershipChange, StorageError>
}

export class MembershipRepository extends Context.Service<
  MembershipRepository,
  MembershipRepositoryService
>()("@folio/domain/MembershipRepository") {}

export interface SessionRepositoryService {
  readonly create: (session: SessionRecord) => Effect.Effect<void, StorageError>
  readonly findByTokenHash: (tokenHash: string) => Effect.Effect<Option.Option<SessionRecord>, StorageError>
  /** Moves lastSeenAt forward (never back). */
  readonly touch: (id: string, at: Date) => Effect.Effect<void, StorageError>
  readonly setTenant: (id: string, tenantId: string | null) => Effect.Effect<void, StorageError>
  /** The person's sessions, newest first. */
  readonly listByUser: (userId: string) => Effect.Effect<ReadonlyArray<SessionRecord>, StorageError>
  /** false when the person has no such session. */
  readonly delete: (userId: string, id: string) => Effect.Effect<boolean, StorageError>
  /** Deletes every session of the person except `keepId`; how many were deleted. */
  readonly deleteAllOfUser: (userId: string, keepId: string | null) => Effect.Effect<number, StorageError>
  /** Deletes sessions past their absolute lifetime or idle since before `idleBefore`. */
  readonly deleteExpired: (now: Date, idleBefore: Date) => Effect.Effect<number, StorageError>
}

export class SessionRepository extends Context.Service<SessionRepository, SessionRepositoryService>()(
  "@folio/domain/SessionRepository"
) {}

export interface PasskeyRepositoryService {
  /** false when the credential id is already registered. */
  readonly create: (passkey: PasskeyRecord) => Effect.Effect<boolean, StorageError>
  readonly listByUser: (userId: string) => Effect.Effect<ReadonlyArray<PasskeyRecord>, StorageError>
  readonly findByCredentialId: (
    credentialId: string
  ) => Effect.Effect<Option.Option<PasskeyRecord>, StorageError>
  /** Records a use: the authenticator's new signature counter and when. */
  readonly recordUse: (id: string, counter: number, at: Date) => Effect.Effect<void, StorageError>
  /** false when the person has no such passkey. */
  readonly delete: (userId: string, id: string) => Effect.Effect<boolean, StorageError>
  /** Deletes the passkey unless it is the account's last way to sign in (no password, no other passkey). */
  readonly deleteKeepingSignIn: (
    userId: string,
    id: string
  ) => Effect.Effect<SignInMethodChange, StorageError>
}

export class PasskeyRepository extends Context.Service<PasskeyRepository, PasskeyRepositoryService>()(
  "@folio/domain/PasskeyRepository"
) {}

export interface OneTimeTokenRepositoryService {
  readonly create: (token: OneTimeTokenRecord) => Effect.Effect<void, StorageError>
  /** The unused, unexpired token of that kind and hash, without using it (a page that shows it). */
  readonly peek: (
    kind: OneTimeTokenKind,
    tokenHash: string,
    now: Date
  ) => Effect.Effect<Option.Option<OneTimeTokenRecord>, StorageError>
  /**
   * Marks the token used and returns it, atomically: of two concurrent uses exactly one gets it;
   * none for an unknown, used or expired token.
   */
  readonly consume: (
    kind: OneTimeTokenKind,
    tokenHash: string,
    now: Date
  ) => Effect.Effect<Option.Option<OneTimeTokenRecord>, StorageError>
  /** Unused, unexpired invitations of the workspace, newest first. */
  readonly listInvitations: (
    tenantId: string,
    now: Date
  ) => Effect.Effect<ReadonlyArray<OneTimeTokenRecord>, StorageError>
  /** Marks an unused invitation of the workspace used (revoked); false when there is none. */
  readonly revokeInvitation: (tenantId: string, id: string, at: Date) => Effect.Effect<boolean, StorageError>
  /** Marks every unused password_reset token of the account used (a new one replaces them). */
  readonly revokeResets: (userId: string, at: Date) => Effect.Effect<void, StorageError>
  /** Deletes tokens that expired or were used before `before`. */
  readonly deleteSpent: (before: Date) => Effect.Effect<number, StorageError>
}

export class OneTimeTokenRepository extends Context.Service<
  OneTimeTokenRepository,
  OneTimeTokenRepositoryService
>()("@folio/domain/OneTimeTokenRepository") {}

export interface AuditPage {
  readonly events: ReadonlyArray<AuditEventRecord>
  /** The id to pass as `before` for the next (older) page; null on the last page. */
  readonly nextBefore: string | null
}

export interface AuditLogService {
  readonly record: (event: AuditEventRecord) => Effect.Effect<void, StorageError>
  /** Many events in one write (a sign-in recorded in each of the person's workspaces). */
  readonly recordMany: (events: ReadonlyArray<AuditEventRecord>) => Effect.Effect<void, StorageError>
  /** The workspace's events newest first, `limit` at a time, older than `before` (an event id). */
  readonly list: (
    tenantId: string,
    options: { readonly before: string | null; readonly limit: number }
  ) => Effect.Effect<AuditPage, StorageError>
  /** Deletes events older than `before` (the 180-day retention); how many. */
  readonly deleteOlderThan: (before: Date) => Effect.Effect<number, StorageError>
}

export class AuditLog extends Context.Service<AuditLog, AuditLogService>()("@folio/domain/AuditLog") {}
