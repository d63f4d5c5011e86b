// The members of a workspace: listed by anyone in it, their roles changed and removed by owners and
// admins (the owner role given or taken only by owners), left by anyone. The last owner stays: the
// repository refuses atomically, so two owners demoting each other at once leave one.
import { Effect } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import {
  type AuditLog,
  type MembershipChange,
  MembershipRepository,
  SessionRepository
} from "../ports/people.js"
import { audit } from "./audit.js"
import { LastOwner, MemberNotFound, NotAllowed } from "./errors.js"
import type { MemberView } from "./records.js"
import { authorize, type ConsoleActor, type Role } from "./roles.js"

export const listMembers = (
  actor: ConsoleActor
): Effect.Effect<ReadonlyArray<MemberView>, NotAllowed | StorageError, MembershipRepository> =>
  Effect.gen(function* () {
    yield* authorize(actor, "listMembers")
    return yield* (yield* MembershipRepository).listByTenant(actor.tenantId)
  })

const memberOf = (actor: ConsoleActor, userId: string) =>
  Effect.gen(function* () {
    const members = yield* (yield* MembershipRepository).listByTenant(actor.tenantId)
    const member = members.find((m) => m.userId === userId)
    if (member === undefined) return yield* new MemberNotFound()
    return member
  })

const outcome = (change: MembershipChange): Effect.Effect<void, LastOwner | MemberNotFound> =>
  change === "changed"
    ? Effect.void
    : change === "last_owner"
      ? Effect.fail(new LastOwner())
      : Effect.fail(new MemberNotFound())

/** Sessions showing the workspace stop showing it (the person must choose another one). */
const leaveSessions = (userId: string, tenantId: string) =>
  Effect.gen(function* () {
    const sessions = yield* SessionRepository
    for (const session of yield* sessions.listByUser(userId))
      if (session.tenantId === tenantId) yield* sessions.setTenant(session.id, null)
  })

export const changeRole = (
  actor: ConsoleActor,
  userId: string,
  role: Role
): Effect.Effect<
  void,
  NotAllowed | LastOwner | MemberNotFound | StorageError,
  MembershipRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "changeRole")
    const member = yield* memberOf(actor, userId)
    if ((role === "owner" || member.role === "owner") && actor.role !== "owner")
      return yield* new NotAllowed({ operation: "changeRole" })
    yield* outcome(yield* (yield* MembershipRepository).setRole(actor.tenantId, userId, role))
    yield* audit(actor.tenantId, {
      action: "member.role_changed",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: member.email,
      ip: actor.ip,
      details: { from: member.role, to: role }
    })
  })

export const removeMember = (
  actor: ConsoleActor,
  userId: string
): Effect.Effect<
  void,
  NotAllowed | LastOwner | MemberNotFound | StorageError,
  MembershipRepository | SessionRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "removeMember")
    const member = yield* memberOf(actor, userId)
    if (member.role === "owner" && actor.role !== "owner")
      return yield* new NotAllowed({ operation: "removeMember" })
    yield* outcome(yield* (yield* MembershipRepository).remove(actor.tenantId, userId))
    yield* leaveSessions(userId, actor.tenantId)
    yield* audit(actor.tenantId, {
      action: "member.removed",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: member.email,
      ip: actor.ip,
      details: { role: member.role }
    })
  })

export const leaveWorkspace = (
  actor: ConsoleActor
): Effect.Effect<
  void,
  NotAllowed | LastOwner | MemberNotFound | StorageError,
  MembershipRepository | SessionRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "leaveWorkspace")
    yield* outcome(yield* (yield* MembershipRepository).remove(actor.tenantId, actor.userId))
    yield* leaveSessions(actor.userId, actor.tenantId)
    yield* audit(actor.tenantId, {
      action: "member.left",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: actor.email,
      ip: actor.ip,
      details: { role: actor.role }
    })
  })
