// Writing the audit log from the use cases: one event in the actor's workspace, or the same event in
// every workspace of a person (sign-ins and account changes concern each workspace they belong to).
import { Effect } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { AuditLog, MembershipRepository } from "../ports/people.js"
import type { AuditAction, AuditEventRecord } from "./records.js"
import { now } from "./secrets.js"

export interface AuditEntry {
  readonly action: AuditAction
  readonly actorUserId: string | null
  readonly actorEmail: string | null
  readonly target?: string | null
  readonly ip: string | null
  /** Value-free facts only: never a key, password, token or session id. */
  readonly details?: AuditEventRecord["details"]
}

const eventsFor = (tenantIds: ReadonlyArray<string>, entry: AuditEntry) =>
  Effect.gen(function* () {
    const ids = yield* IdGen
    const at = yield* now
    return yield* Effect.forEach(
      tenantIds,
      (tenantId): Effect.Effect<AuditEventRecord> =>
        Effect.map(ids.uuidV7, (id) => ({
          id,
          tenantId,
          action: entry.action,
          actorUserId: entry.actorUserId,
          actorEmail: entry.actorEmail,
          target: entry.target ?? null,
          ip: entry.ip,
          details: entry.details ?? {},
          at
        }))
    )
  })

/** Records the event in one workspace. */
export const audit = (
  tenantId: string,
  entry: AuditEntry
): Effect.Effect<void, StorageError, AuditLog | IdGen> =>
  Effect.gen(function* () {
    const [event] = yield* eventsFor([tenantId], entry)
    if (event !== undefined) yield* (yield* AuditLog).record(event)
  })

/** Records the event in every workspace the person belongs to (none: nothing to record). */
export const auditInWorkspacesOf = (
  userId: string,
  entry: AuditEntry
): Effect.Effect<void, StorageError, AuditLog | IdGen | MembershipRepository> =>
  Effect.gen(function* () {
    const memberships = yield* (yield* MembershipRepository).listByUser(userId)
    if (memberships.length === 0) return
    yield* (yield* AuditLog).recordMany(
      yield* eventsFor(
        memberships.map((m) => m.tenantId),
        entry
      )
    )
  })
