// Console sessions: started at every sign-in with a fresh random token (never reused: no fixation),
// resolved from the cookie with a sliding idle timeout and an absolute lifetime, listed and revoked
// by their owner. A session also remembers which workspace the console shows.
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { MembershipRepository, SessionRepository, UserRepository } from "../ports/people.js"
import { NotAMember, SessionNotFound } from "./errors.js"
import { SessionPolicy } from "./policy.js"
import type { SessionRecord, UserRecord, WorkspaceMembershipView } from "./records.js"
import type { ConsoleActor } from "./roles.js"
import { hashSecret, newSecret, now } from "./secrets.js"

const USER_AGENT_MAX = 200

export interface StartedSession {
  readonly session: SessionRecord
  /** The cookie's value: shown to the browser once, stored only as its hash. */
  readonly token: string
}

/** A new session for the person; its workspace is the one asked for, else their first. */
export const startSession = (
  user: UserRecord,
  context: {
    readonly ip: string | null
    readonly userAgent: string | null
    readonly tenantId?: string | null
  }
): Effect.Effect<StartedSession, StorageError, SessionRepository | MembershipRepository | IdGen> =>
  Effect.gen(function* () {
    const policy = yield* SessionPolicy
    const ids = yield* IdGen
    const at = yield* now
    const { token, hash } = yield* newSecret
    const csrf = yield* newSecret
    const tenantId =
      context.tenantId ?? (yield* (yield* MembershipRepository).listByUser(user.id))[0]?.tenantId ?? null
    const session: SessionRecord = {
      id: yield* ids.uuidV7,
      tokenHash: hash,
      userId: user.id,
      csrfToken: csrf.token,
      tenantId,
      createdAt: at,
      lastSeenAt: at,
      expiresAt: new Date(at.getTime() + policy.absoluteMs),
      ip: context.ip,
      userAgent: context.userAgent === null ? null : context.userAgent.slice(0, USER_AGENT_MAX)
    }
    yield* (yield* SessionRepository).create(session)
    return { session, token }
  })

/**
 * The live session a cookie's token names, with its person. None when unknown, idle for longer
 * than idleMs, or past its absolute lifetime (a dead session is deleted on sight). Use moves
 * lastSeenAt forward, written at most once per touchEveryMs.
 */
export const resolveSession = (
  token: string
): Effect.Effect<
  Option.Option<{ readonly session: SessionRecord; readonly user: UserRecord }>,
  StorageError,
  SessionRepository | UserRepository
> =>
  Effect.gen(function* () {
    const sessions = yield* SessionRepository
    const found = yield* sessions.findByTokenHash(hashSecret(token))
    if (Option.isNone(found)) return Option.none()
    const session = found.value
    const policy = yield* SessionPolicy
    const at = yield* now
    const idle = at.getTime() - session.lastSeenAt.getTime() >= policy.idleMs
    if (idle || at.getTime() >= session.expiresAt.getTime()) {
      yield* sessions.delete(session.userId, session.id)
      return Option.none()
    }
    const user = yield* (yield* UserRepository).get(session.userId)
    if (Option.isNone(user)) {
      yield* sessions.delete(session.userId, session.id)
      return Option.none()
    }
    if (at.getTime() - session.lastSeenAt.getTime() < policy.touchEveryMs)
      return Option.some({ session, user: user.value })
    yield* sessions.touch(session.id, at)
    return Option.some({ session: { ...session, lastSeenAt: at }, user: user.value })
  })

/** Ends the session the token names (nothing when there is none). */
export const signOut = (token: string): Effect.Effect<void, StorageError, SessionRepository> =>
  Effect.gen(function* () {
    const sessions = yield* SessionRepository
    const found = yield* sessions.findByTokenHash(hashSecret(token))
    if (Option.isSome(found)) yield* sessions.delete(found.value.userId, found.value.id)
  })

export const listSessions = (
  userId: string
): Effect.Effect<ReadonlyArray<SessionRecord>, StorageError, SessionRepository> =>
  Effect.flatMap(Effect.service(SessionRepository), (sessions) => sessions.listByUser(userId))

/** Ends one of the person's own sessions (another person's is "not found"). */
export const revokeSession = (
  userId: string,
  sessionId: string
): Effect.Effect<void, SessionNotFound | StorageError, SessionRepository> =>
  Effect.gen(function* () {
    if (!(yield* (yield* SessionRepository).delete(userId, sessionId))) return yield* new SessionNotFound()
  })

/** Ends every session of the person but `keepSessionId` (the one asking); how many ended. */
export const signOutEverywhere = (
  userId: string,
  keepSessionId: string | null
): Effect.Effect<number, StorageError, SessionRepository> =>
  Effect.flatMap(Effect.service(SessionRepository), (sessions) =>
    sessions.deleteAllOfUser(userId, keepSessionId)
  )

/**
 * Who acts in the console: the person in the workspace their session shows, with their role there
 * now (read per request, so a demotion or removal counts at once).
 */
export const consoleActor = (
  session: SessionRecord,
  user: UserRecord,
  ip: string | null
): Effect.Effect<ConsoleActor, NotAMember | StorageError, MembershipRepository> =>
  Effect.gen(function* () {
    if (session.tenantId === null) return yield* new NotAMember()
    const membership = yield* (yield* MembershipRepository).get(session.tenantId, user.id)
    if (Option.isNone(membership)) return yield* new NotAMember()
    return {
      userId: user.id,
      email: user.email,
      sessionId: session.id,
      tenantId: session.tenantId,
      role: membership.value.role,
      ip
    }
  })

/** Shows another of the person's workspaces in this session. */
export const switchWorkspace = (
  session: SessionRecord,
  tenantId: string
): Effect.Effect<SessionRecord, NotAMember | StorageError, MembershipRepository | SessionRepository> =>
  Effect.gen(function* () {
    const membership = yield* (yield* MembershipRepository).get(tenantId, session.userId)
    if (Option.isNone(membership)) return yield* new NotAMember()
    yield* (yield* SessionRepository).setTenant(session.id, tenantId)
    return { ...session, tenantId }
  })

export const workspacesOf = (
  userId: string
): Effect.Effect<ReadonlyArray<WorkspaceMembershipView>, StorageError, MembershipRepository> =>
  Effect.flatMap(Effect.service(MembershipRepository), (memberships) => memberships.listByUser(userId))
