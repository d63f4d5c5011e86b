// Roles in a workspace and the one table that says which role may run which console use case. The
// console's pages, the CLI and (with issue 33) OAuth consent read this table, so they cannot drift.
import { Effect, Schema } from "effect"
import { NotAllowed } from "./errors.js"

export const ROLES = ["owner", "admin", "member"] as const
export const Role = Schema.Literals(ROLES)
export type Role = typeof Role.Type

export const isRole = (value: string): value is Role => (ROLES as ReadonlyArray<string>).includes(value)

/** Every use case a signed-in person runs in a workspace, by name. */
export const CONSOLE_OPERATIONS = {
  viewWorkspace: ["owner", "admin", "member"],
  listKeys: ["owner", "admin", "member"],
  /** Members only with the scopes the workspace allows them (memberKeyScopes). */
  createKey: ["owner", "admin", "member"],
  /** Members only the keys they created themselves. */
  revokeKey: ["owner", "admin", "member"],
  listMembers: ["owner", "admin", "member"],
  /** Admins invite admins and members; only owners invite owners. */
  inviteMember: ["owner", "admin"],
  revokeInvitation: ["owner", "admin"],
  /** Only owners grant or take away the owner role. */
  changeRole: ["owner", "admin"],
  /** Admins cannot remove an owner. */
  removeMember: ["owner", "admin"],
  leaveWorkspace: ["owner", "admin", "member"],
  viewSettings: ["owner", "admin", "member"],
  renameWorkspace: ["owner", "admin"],
  changeFeatures: ["owner", "admin"],
  changeMemberKeyScopes: ["owner", "admin"],
  disableWorkspace: ["owner"],
  viewAudit: ["owner", "admin"],
  /** Members see only the apps they connected themselves. */
  listConnectedApps: ["owner", "admin", "member"],
  /** Members only the apps they connected themselves. */
  revokeConnectedApp: ["owner", "admin", "member"],
  /** OAuth consent: a person lets an app act for them in the workspace (members within their key scopes). */
  authorizeApp: ["owner", "admin", "member"]
} as const satisfies Record<string, ReadonlyArray<Role>>

export type ConsoleOperation = keyof typeof CONSOLE_OPERATIONS

export const CONSOLE_OPERATION_NAMES = Object.keys(CONSOLE_OPERATIONS) as ReadonlyArray<ConsoleOperation>

export const mayRun = (role: Role, operation: ConsoleOperation): boolean =>
  (CONSOLE_OPERATIONS[operation] as ReadonlyArray<Role>).includes(role)

/** Who is acting in the console: a signed-in person in the workspace their session has chosen. */
export interface ConsoleActor {
  readonly userId: string
  readonly email: string
  readonly sessionId: string
  readonly tenantId: string
  readonly role: Role
  /** The client address, for the audit log. */
  readonly ip: string | null
}

/** Succeeds when the actor's role may run the operation; NotAllowed otherwise. */
export const authorize = (
  actor: ConsoleActor,
  operation: ConsoleOperation
): Effect.Effect<void, NotAllowed> =>
  mayRun(actor.role, operation) ? Effect.void : Effect.fail(new NotAllowed({ operation }))
