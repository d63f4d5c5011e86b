// One-time links: invitations to a workspace, the first owner's setup link, password resets. A link
// holds 32 random bytes; storage keeps their hash. Every failure to use one is the same LinkInvalid,
// and nothing here tells an asker whether an e-mail has an account (a reset always "succeeds").
import { Effect, Option } from "effect"
import { sha256Hex } from "../../kernel/digest.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import type { StorageError } from "../../kernel/errors.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { TenantNotFound } from "../errors.js"
import { PasswordHashing } from "../ports/password-hashing.js"
import {
  type AuditLog,
  MembershipRepository,
  OneTimeTokenRepository,
  SessionRepository,
  UserRepository
} from "../ports/people.js"
import { RateLimitStore } from "../ports/rate-limit-store.js"
import { TenantRepository } from "../ports/tenants.js"
import { audit, auditInWorkspacesOf } from "./audit.js"
import {
  AlreadyMember,
  InvalidDisplayName,
  InvalidEmail,
  InvitationNotFound,
  LinkInvalid,
  NotAllowed,
  SignInToAccept,
  WeakPassword
} from "./errors.js"
import { composeInvitationEmail, composeResetEmail, sendLinkMail } from "./messages.js"
import { ConsoleLinks, LinkPolicy, normalizeEmail, SignInPolicy } from "./policy.js"
import type { OneTimeTokenRecord, UserRecord } from "./records.js"
import { authorize, type ConsoleActor, type Role } from "./roles.js"
import { hashSecret, newSecret, now } from "./secrets.js"
import { type StartedSession, startSession } from "./sessions.js"

const DAY_MS = 86_400_000

/** Passwords: 10 to 256 characters (length, not composition: NIST 800-63B). */
export const checkPassword = (password: string): Effect.Effect<string, WeakPassword> =>
  password.length >= 10 && password.length <= 256 ? Effect.succeed(password) : Effect.fail(new WeakPassword())

/** A person's name: 1 to 100 characters once trimmed. */
export const checkDisplayName = (name: string): Effect.Effect<string, InvalidDisplayName> => {
  const trimmed = name.trim()
  return trimmed.length >= 1 && trimmed.length <= 100
    ? Effect.succeed(trimmed)
    : Effect.fail(new InvalidDisplayName())
}

const checkEmail = (email: string): Effect.Effect<string, InvalidEmail> =>
  Option.match(normalizeEmail(email), {
    onNone: () => Effect.fail(new InvalidEmail()),
    onSome: Effect.succeed
  })

const invitationUrl = (token: string) =>
  Effect.map(ConsoleLinks, (links) => `${links.publicOrigin}/invitations/${token}`)
const resetUrl = (token: string) =>
  Effect.map(ConsoleLinks, (links) => `${links.publicOrigin}/reset-password/${token}`)

interface NewLink {
  readonly kind: OneTimeTokenRecord["kind"]
  readonly tenantId: string | null
  readonly email: string | null
  readonly role: Role | null
  readonly userId: string | null
  readonly lifetimeMs: number
}

const createLink = (link: NewLink) =>
  Effect.gen(function* () {
    const { token, hash } = yield* newSecret
    const at = yield* now
    const record: OneTimeTokenRecord = {
      id: yield* (yield* IdGen).uuidV7,
      kind: link.kind,
      tokenHash: hash,
      tenantId: link.tenantId,
      email: link.email,
      role: link.role,
      userId: link.userId,
      data: {},
      createdAt: at,
      expiresAt: new Date(at.getTime() + link.lifetimeMs),
      usedAt: null
    }
    yield* (yield* OneTimeTokenRepository).create(record)
    return { record, token }
  })

export interface SentInvitation {
  readonly invitation: OneTimeTokenRecord
  /** The link: shown once to the inviter when it could not be mailed. */
  readonly url: string
  readonly mailed: boolean
}

type InviteRequirements =
  | TenantRepository
  | UserRepository
  | MembershipRepository
  | OneTimeTokenRepository
  | AuditLog
  | IdGen

const invite = (input: {
  readonly tenantId: string
  readonly email: string
  readonly role: Role
  readonly by: { readonly userId: string; readonly email: string; readonly ip: string | null } | null
}): Effect.Effect<
  SentInvitation,
  TenantNotFound | InvalidEmail | AlreadyMember | StorageError,
  InviteRequirements
> =>
  Effect.gen(function* () {
    const email = yield* checkEmail(input.email)
    const tenant = yield* (yield* TenantRepository).get(input.tenantId)
    if (Option.isNone(tenant)) return yield* new TenantNotFound()
    const existing = yield* (yield* UserRepository).findByEmail(email)
    if (Option.isSome(existing)) {
      const membership = yield* (yield* MembershipRepository).get(input.tenantId, existing.value.id)
      if (Option.isSome(membership)) return yield* new AlreadyMember()
    }
    const policy = yield* LinkPolicy
    const { record, token } = yield* createLink({
      kind: "invitation",
      tenantId: input.tenantId,
      email,
      role: input.role,
      userId: input.by?.userId ?? null,
      lifetimeMs: policy.invitationMs
    })
    const url = yield* invitationUrl(token)
    const mailed = yield* sendLinkMail(
      composeInvitationEmail({
        id: record.id,
        to: email,
        workspaceName: tenant.value.name,
        role: input.role,
        url,
        expiresInDays: Math.round(policy.invitationMs / DAY_MS)
      })
    )
    yield* audit(input.tenantId, {
      action: "member.invited",
      actorUserId: input.by?.userId ?? null,
      actorEmail: input.by?.email ?? null,
      target: email,
      ip: input.by?.ip ?? null,
      details: { role: input.role, mailed }
    })
    return { invitation: record, url, mailed }
  })

/** Invites someone into the actor's workspace; only owners invite owners. */
export const inviteMember = (
  actor: ConsoleActor,
  input: { readonly email: string; readonly role: Role }
): Effect.Effect<
  SentInvitation,
  NotAllowed | InvalidEmail | AlreadyMember | TenantNotFound | StorageError,
  InviteRequirements
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "inviteMember")
    if (input.role === "owner" && actor.role !== "owner")
      return yield* new NotAllowed({ operation: "inviteMember" })
    return yield* invite({
      tenantId: actor.tenantId,
      email: input.email,
      role: input.role,
      by: { userId: actor.userId, email: actor.email, ip: actor.ip }
    })
  })

/** The operator's invitation (the CLI, no signed-in actor): any role, any workspace. */
export const inviteAsOperator = (input: {
  readonly tenantId: string
  readonly email: string
  readonly role: Role
}): Effect.Effect<
  { readonly url: string; readonly mailed: boolean },
  TenantNotFound | InvalidEmail | AlreadyMember | StorageError,
  InviteRequirements
> => Effect.map(invite({ ...input, by: null }), ({ url, mailed }) => ({ url, mailed }))

/**
 * The link that creates a workspace's first owner (printed at the first start): whoever opens it
 * chooses the e-mail. Single use, like every link.
 */
export const createSetupLink = (
  tenantId: string
): Effect.Effect<
  { readonly url: string },
  TenantNotFound | StorageError,
  TenantRepository | OneTimeTokenRepository | IdGen
> =>
  Effect.gen(function* () {
    if (Option.isNone(yield* (yield* TenantRepository).get(tenantId))) return yield* new TenantNotFound()
    const { token } = yield* createLink({
      kind: "setup",
      tenantId,
      email: null,
      role: "owner",
      userId: null,
      lifetimeMs: (yield* LinkPolicy).setupMs
    })
    return { url: yield* invitationUrl(token) }
  })

/** The usable invitation or setup link a token names (not used up), with its workspace. */
const findJoinLink = (token: string) =>
  Effect.gen(function* () {
    const tokens = yield* OneTimeTokenRepository
    const hash = hashSecret(token)
    const at = yield* now
    const invitation = yield* tokens.peek("invitation", hash, at)
    const link = Option.isSome(invitation) ? invitation : yield* tokens.peek("setup", hash, at)
    if (Option.isNone(link) || link.value.tenantId === null || link.value.role === null)
      return yield* new LinkInvalid()
    const tenant = yield* (yield* TenantRepository).get(link.value.tenantId)
    if (Option.isNone(tenant)) return yield* new LinkInvalid()
    // A setup link makes a workspace's first owner. Each start printed a fresh one until then, so
    // once the workspace has a member every setup link of it is dead: an old line or log makes no owner.
    if (
      link.value.kind === "setup" &&
      (yield* (yield* MembershipRepository).listByTenant(link.value.tenantId)).length > 0
    )
      return yield* new LinkInvalid()
    return { link: link.value, tenantId: link.value.tenantId, role: link.value.role, tenant: tenant.value }
  })

export interface LinkDescription {
  readonly kind: "invitation" | "setup"
  readonly workspaceName: string
  readonly email: string | null
  readonly role: Role
  /** Invitations only: whether the invited e-mail has an account (then: sign in to accept). */
  readonly accountExists: boolean
}

/** What an invitation or setup link offers, without using it (the page that accepts it). */
export const describeLink = (
  token: string
): Effect.Effect<
  LinkDescription,
  LinkInvalid | StorageError,
  OneTimeTokenRepository | TenantRepository | UserRepository | MembershipRepository
> =>
  Effect.gen(function* () {
    const { link, role, tenant } = yield* findJoinLink(token)
    const kind = link.kind === "setup" ? "setup" : "invitation"
    const accountExists =
      kind === "invitation" && link.email !== null
        ? Option.isSome(yield* (yield* UserRepository).findByEmail(link.email))
        : false
    return { kind, workspaceName: tenant.name, email: link.email, role, accountExists }
  })

export interface AcceptedInvitation {
  readonly user: UserRecord
  /** The session of an account created by accepting; null when a signed-in person joined. */
  readonly started: StartedSession | null
}

/**
 * Accepts an invitation or setup link: a signed-in person joins with their account (an invitation's
 * e-mail must be theirs); anyone else creates an account (the invitation's e-mail, or the one given
 * for a setup link) and is signed in. Input is checked before the link is used up; of two accepts
 * at once one wins.
 */
export const acceptInvitation = (input: {
  readonly token: string
  readonly signedIn: { readonly userId: string } | null
  readonly email?: string
  readonly displayName?: string
  readonly password?: string
  readonly ip: string | null
  readonly userAgent: string | null
}): Effect.Effect<
  AcceptedInvitation,
  | LinkInvalid
  | SignInToAccept
  | AlreadyMember
  | InvalidEmail
  | WeakPassword
  | InvalidDisplayName
  | StorageError,
  | OneTimeTokenRepository
  | TenantRepository
  | UserRepository
  | MembershipRepository
  | SessionRepository
  | PasswordHashing
  | AuditLog
  | IdGen
> =>
  Effect.gen(function* () {
    const { link, tenantId, role } = yield* findJoinLink(input.token)
    const users = yield* UserRepository
    const memberships = yield* MembershipRepository
    const tokens = yield* OneTimeTokenRepository
    const ids = yield* IdGen
    const joined = (user: UserRecord) =>
      audit(tenantId, {
        action: "member.joined",
        actorUserId: user.id,
        actorEmail: user.email,
        target: user.email,
        ip: input.ip,
        details: { role, via: link.kind }
      })

    const join = (user: UserRecord) =>
      Effect.gen(function* () {
        const consumed = yield* tokens.consume(link.kind, link.tokenHash, yield* now)
        if (Option.isNone(consumed)) return yield* new LinkInvalid()
        if (!(yield* memberships.add({ tenantId, userId: user.id, role, createdAt: yield* now })))
          return yield* new AlreadyMember()
        yield* joined(user)
      })

    if (input.signedIn !== null) {
      const user = yield* users.get(input.signedIn.userId)
      if (Option.isNone(user)) return yield* new LinkInvalid()
      if (link.kind === "invitation" && link.email !== user.value.email) return yield* new LinkInvalid()
      if (Option.isSome(yield* memberships.get(tenantId, user.value.id))) return yield* new AlreadyMember()
      yield* join(user.value)
      return { user: user.value, started: null }
    }

    const email =
      link.kind === "invitation" && link.email !== null ? link.email : yield* checkEmail(input.email ?? "")
    if (Option.isSome(yield* users.findByEmail(email))) return yield* new SignInToAccept()
    const displayName = yield* checkDisplayName(input.displayName ?? "")
    const password = yield* checkPassword(input.password ?? "")
    const passwordHash = yield* (yield* PasswordHashing).hash(password)
    const user: UserRecord = {
      id: yield* ids.uuidV7,
      email,
      displayName,
      passwordHash,
      createdAt: yield* now
    }
    // The account exists only once the link is ours: a lost race creates nothing.
    const consumed = yield* tokens.consume(link.kind, link.tokenHash, yield* now)
    if (Option.isNone(consumed)) return yield* new LinkInvalid()
    // The account and its membership are one write: a crash leaves neither half.
    if (
      !(yield* memberships.addWithNewUser(user, {
        tenantId,
        userId: user.id,
        role,
        createdAt: user.createdAt
      }))
    )
      return yield* new SignInToAccept()
    yield* joined(user)
    const started = yield* startSession(user, { ip: input.ip, userAgent: input.userAgent, tenantId })
    return { user, started }
  })

/** The workspace's pending invitations (unused, unexpired), newest first. */
export const listInvitations = (
  actor: ConsoleActor
): Effect.Effect<ReadonlyArray<OneTimeTokenRecord>, NotAllowed | StorageError, OneTimeTokenRepository> =>
  Effect.gen(function* () {
    yield* authorize(actor, "inviteMember")
    return yield* (yield* OneTimeTokenRepository).listInvitations(actor.tenantId, yield* now)
  })

export const revokeInvitation = (
  actor: ConsoleActor,
  id: string
): Effect.Effect<
  void,
  NotAllowed | InvitationNotFound | StorageError,
  OneTimeTokenRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "revokeInvitation")
    if (!(yield* (yield* OneTimeTokenRepository).revokeInvitation(actor.tenantId, id, yield* now)))
      return yield* new InvitationNotFound()
    yield* audit(actor.tenantId, {
      action: "member.invitation_revoked",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: id,
      ip: actor.ip
    })
  })

/** A fresh reset link for the account (earlier ones stop working). */
const newResetLink = (user: UserRecord) =>
  Effect.gen(function* () {
    yield* (yield* OneTimeTokenRepository).revokeResets(user.id, yield* now)
    const { record, token } = yield* createLink({
      kind: "password_reset",
      tenantId: null,
      email: user.email,
      role: null,
      userId: user.id,
      lifetimeMs: (yield* LinkPolicy).resetMs
    })
    return { record, url: yield* resetUrl(token) }
  })

/**
 * "Send me a reset link": always answers the same. The link is mailed only when the address has an
 * account and a Mailer is configured, within the address's budget (the sign-in window and count).
 */
export const requestPasswordReset = (input: {
  readonly email: string
  readonly ip: string | null
}): Effect.Effect<void, StorageError, UserRepository | OneTimeTokenRepository | RateLimitStore | IdGen> =>
  Effect.gen(function* () {
    const policy = yield* SignInPolicy
    const nowMs = (yield* now).getTime()
    const email = normalizeEmail(input.email)
    const [address, account] = yield* (yield* RateLimitStore).hitMany(
      [
        `reset-address:${input.ip ?? "unknown"}`,
        `reset-account:${sha256Hex(Option.getOrElse(email, () => input.email.trim().toLowerCase()))}`
      ],
      policy.windowMs,
      nowMs
    )
    if ((address?.count ?? 0) > policy.perAddress || (account?.count ?? 0) > policy.perAccount) return
    if (Option.isNone(email) || (yield* Mailer) === null) return
    const user = yield* (yield* UserRepository).findByEmail(email.value)
    if (Option.isNone(user)) return
    const { record, url } = yield* newResetLink(user.value)
    yield* sendLinkMail(
      composeResetEmail({
        id: record.id,
        to: user.value.email,
        url,
        expiresInMinutes: Math.round((yield* LinkPolicy).resetMs / 60_000)
      })
    )
  })

/** The operator's reset link (the CLI): none when the e-mail has no account. */
export const issueResetLink = (
  email: string
): Effect.Effect<
  Option.Option<{ readonly url: string }>,
  StorageError,
  UserRepository | OneTimeTokenRepository | IdGen
> =>
  Effect.gen(function* () {
    const normal = normalizeEmail(email)
    if (Option.isNone(normal)) return Option.none()
    const user = yield* (yield* UserRepository).findByEmail(normal.value)
    if (Option.isNone(user)) return Option.none()
    const { url } = yield* newResetLink(user.value)
    return Option.some({ url })
  })

/** The account a usable reset link is for, without using it (the page asking for the new password). */
export const describeReset = (
  token: string
): Effect.Effect<{ readonly email: string }, LinkInvalid | StorageError, OneTimeTokenRepository> =>
  Effect.gen(function* () {
    const link = yield* (yield* OneTimeTokenRepository).peek("password_reset", hashSecret(token), yield* now)
    if (Option.isNone(link) || link.value.email === null) return yield* new LinkInvalid()
    return { email: link.value.email }
  })

/** Sets a new password through a reset link and signs every session of the account out. */
export const resetPassword = (input: {
  readonly token: string
  readonly password: string
  readonly ip?: string | null
}): Effect.Effect<
  void,
  LinkInvalid | WeakPassword | StorageError,
  | OneTimeTokenRepository
  | UserRepository
  | SessionRepository
  | MembershipRepository
  | PasswordHashing
  | AuditLog
  | IdGen
> =>
  Effect.gen(function* () {
    const password = yield* checkPassword(input.password)
    const tokens = yield* OneTimeTokenRepository
    // A dead link costs no hash; a live one is used up only after the slow hash is ready.
    if (Option.isNone(yield* tokens.peek("password_reset", hashSecret(input.token), yield* now)))
      return yield* new LinkInvalid()
    const hash = yield* (yield* PasswordHashing).hash(password)
    const link = yield* tokens.consume("password_reset", hashSecret(input.token), yield* now)
    if (Option.isNone(link) || link.value.userId === null) return yield* new LinkInvalid()
    const userId = link.value.userId
    const user = yield* (yield* UserRepository).get(userId)
    if (Option.isNone(user)) return yield* new LinkInvalid()
    yield* (yield* UserRepository).setPasswordHash(userId, hash)
    yield* (yield* SessionRepository).deleteAllOfUser(userId, null)
    yield* auditInWorkspacesOf(userId, {
      action: "account.password_reset",
      actorUserId: userId,
      actorEmail: user.value.email,
      ip: input.ip ?? null
    })
  })
