// What identity keeps about people: accounts, their workspace memberships, console sessions, passkeys,
// one-time links (invitations, password resets, the first owner's setup link, passkey challenges) and
// the audit log. Secrets (session tokens, link tokens) are stored only as SHA-256 hashes.
import type { Role } from "./roles.js"

export interface UserRecord {
  readonly id: string
  /** Normalised (trimmed, lower-cased); unique. */
  readonly email: string
  readonly displayName: string
  /** argon2id PHC string; null once the account signs in with passkeys only. */
  readonly passwordHash: string | null
  readonly createdAt: Date
}

export interface MembershipRecord {
  readonly tenantId: string
  readonly userId: string
  readonly role: Role
  readonly createdAt: Date
}

/** A membership with the person's name and e-mail (the members page). */
export interface MemberView extends MembershipRecord {
  readonly email: string
  readonly displayName: string
}

/** A membership with its workspace's name (the workspace switcher). */
export interface WorkspaceMembershipView extends MembershipRecord {
  readonly tenantName: string
  readonly tenantDisabled: boolean
}

export interface SessionRecord {
  /** Public id (uuid v7): how the sessions page names a session; never the cookie's token. */
  readonly id: string
  /** Lowercase hex SHA-256 of the cookie's random token. */
  readonly tokenHash: string
  readonly userId: string
  /** The per-session CSRF token every state-changing console request must echo (random, 32 bytes). */
  readonly csrfToken: string
  /** The workspace the console shows; null until the person has one. */
  readonly tenantId: string | null
  readonly createdAt: Date
  /** Moved forward by use (at most once a minute): the idle timeout counts from here. */
  readonly lastSeenAt: Date
  /** The absolute lifetime's end, fixed at sign-in. */
  readonly expiresAt: Date
  readonly ip: string | null
  /** Trimmed to 200 characters: shown in the sessions list. */
  readonly userAgent: string | null
}

export interface PasskeyRecord {
  readonly id: string
  readonly userId: string
  /** The WebAuthn credential id, base64url; unique. */
  readonly credentialId: string
  /** The COSE public key, base64url. */
  readonly publicKey: string
  readonly counter: number
  readonly transports: ReadonlyArray<string>
  /** Chosen by the person ("MacBook"), 1 to 100 characters. */
  readonly name: string
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
}

export const ONE_TIME_TOKEN_KINDS = ["invitation", "password_reset", "setup", "passkey_challenge"] as const
export type OneTimeTokenKind = (typeof ONE_TIME_TOKEN_KINDS)[number]

export interface OneTimeTokenRecord {
  readonly id: string
  readonly kind: OneTimeTokenKind
  /** Lowercase hex SHA-256 of the token in the link (or of a passkey ceremony's flow id). */
  readonly tokenHash: string
  /** invitation, setup: the workspace joined. */
  readonly tenantId: string | null
  /** invitation, password_reset: the address it was sent to. setup: null (chosen when accepted). */
  readonly email: string | null
  /** invitation, setup: the role given. */
  readonly role: Role | null
  /** The user who created it (invitations); password_reset and passkey_challenge: the account. */
  readonly userId: string | null
  /** passkey_challenge: { challenge, purpose }; otherwise {}. */
  readonly data: Readonly<Record<string, string>>
  readonly createdAt: Date
  readonly expiresAt: Date
  readonly usedAt: Date | null
}

export const AUDIT_ACTIONS = [
  "key.created",
  "key.revoked",
  "member.invited",
  "member.invitation_revoked",
  "member.joined",
  "member.removed",
  "member.left",
  "member.role_changed",
  "signin.succeeded",
  "signin.failed",
  "settings.changed",
  "workspace.disabled",
  "workspace.enabled",
  "account.password_changed",
  "account.password_reset",
  "account.passkey_added",
  "account.passkey_removed",
  "app.authorized",
  "app.revoked"
] as const
export type AuditAction = (typeof AUDIT_ACTIONS)[number]

export interface AuditEventRecord {
  /** uuid v7: the log is listed newest first by it. */
  readonly id: string
  readonly tenantId: string
  readonly action: AuditAction
  /** Who acted; null for the system (the CLI) or an unknown person. */
  readonly actorUserId: string | null
  /** The actor's e-mail as it was then (kept when the account is gone); null when unknown. */
  readonly actorEmail: string | null
  /** What was acted on, by id or e-mail (a key id, a member's e-mail); never a secret. */
  readonly target: string | null
  readonly ip: string | null
  /** Value-free facts: a role, a scope list, a feature name. Never a key, password or token. */
  readonly details: Readonly<Record<string, string | number | boolean | null>>
  readonly at: Date
}
