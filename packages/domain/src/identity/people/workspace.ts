// The workspace itself from the console: its settings (name, disabled), and its audit log, kept
// 180 days (housekeeping deletes older events).
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import type { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { InvalidTenantName, TenantNotFound } from "../errors.js"
import { AuditLog, type AuditPage } from "../ports/people.js"
import { type TenantRecord, TenantRepository } from "../ports/tenants.js"
import { setTenantDisabled } from "../provisioning.js"
import { audit } from "./audit.js"
import type { NotAllowed } from "./errors.js"
import { authorize, type ConsoleActor } from "./roles.js"

export const AUDIT_RETENTION_DAYS = 180
const AUDIT_PAGE_MAX = 100

/** The actor's workspace as the settings page shows it. */
export const workspaceOf = (
  actor: ConsoleActor
): Effect.Effect<TenantRecord, NotAllowed | TenantNotFound | StorageError, TenantRepository> =>
  Effect.gen(function* () {
    yield* authorize(actor, "viewSettings")
    const tenant = yield* (yield* TenantRepository).get(actor.tenantId)
    if (Option.isNone(tenant)) return yield* new TenantNotFound()
    return tenant.value
  })

export const renameWorkspace = (
  actor: ConsoleActor,
  name: string
): Effect.Effect<
  void,
  NotAllowed | InvalidTenantName | TenantNotFound | StorageError,
  TenantRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "renameWorkspace")
    const trimmed = name.trim()
    if (trimmed.length === 0 || trimmed.length > 200) return yield* new InvalidTenantName()
    if (!(yield* (yield* TenantRepository).rename(actor.tenantId, trimmed)))
      return yield* new TenantNotFound()
    yield* audit(actor.tenantId, {
      action: "settings.changed",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: "name",
      ip: actor.ip,
      details: { setting: "name", name: trimmed }
    })
  })

/** Disables (every key refused) or enables the workspace: the CLI's use case, owners only here. */
export const setWorkspaceDisabledAs = (
  actor: ConsoleActor,
  disabled: boolean
): Effect.Effect<
  void,
  NotAllowed | TenantNotFound | StorageError,
  TenantRepository | InvalidationBus | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "disableWorkspace")
    yield* setTenantDisabled(actor.tenantId, disabled)
    yield* audit(actor.tenantId, {
      action: disabled ? "workspace.disabled" : "workspace.enabled",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: null,
      ip: actor.ip
    })
  })

/** The workspace's audit log, newest first, a page at a time (at most 100 events). */
export const listAudit = (
  actor: ConsoleActor,
  page: { readonly before: string | null; readonly limit: number }
): Effect.Effect<AuditPage, NotAllowed | StorageError, AuditLog> =>
  Effect.gen(function* () {
    yield* authorize(actor, "viewAudit")
    const limit = Math.min(Math.max(1, Math.floor(page.limit)), AUDIT_PAGE_MAX)
    return yield* (yield* AuditLog).list(actor.tenantId, { before: page.before, limit })
  })
