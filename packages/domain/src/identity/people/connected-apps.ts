// Connecting an application (an MCP client) to a workspace: the consent use case. The person picks
// the workspace and the scopes; a member may grant only what the workspace lets members' keys
// carry, nobody more than the application asked for. The grant itself is the authorization
// server's; this decides what it may hold and writes the audit event.
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidScopeList, TenantNotFound } from "../errors.js"
import { type AuditLog, MembershipRepository } from "../ports/people.js"
import { TenantRepository } from "../ports/tenants.js"
import type { ScopeSet } from "../scopes.js"
import { audit } from "./audit.js"
import { NotAMember, type NotAllowed, ScopeNotAllowed } from "./errors.js"
import { memberKeyScopesOf } from "./keys.js"
import { authorize, type ConsoleActor } from "./roles.js"

/** The signed-in person acting in `tenantId` (one of their workspaces, whatever the session shows). */
export const actorInWorkspace = (
  person: {
    readonly userId: string
    readonly email: string
    readonly sessionId: string
    readonly ip: string | null
  },
  tenantId: string
): Effect.Effect<ConsoleActor, NotAMember | StorageError, MembershipRepository> =>
  Effect.flatMap(
    Effect.flatMap(Effect.service(MembershipRepository), (m) => m.get(tenantId, person.userId)),
    (found) =>
      Option.match(found, {
        onNone: () => Effect.fail(new NotAMember()),
        onSome: (membership) => Effect.succeed({ ...person, tenantId, role: membership.role })
      })
  )

/** The scopes the actor may grant an application (the same rule as the keys they may create). */
export const grantableScopes = (
  actor: ConsoleActor,
  scopeSet: ScopeSet
): Effect.Effect<ReadonlyArray<string>, TenantNotFound | StorageError, TenantRepository> =>
  actor.role === "member"
    ? Effect.flatMap(
        Effect.flatMap(Effect.service(TenantRepository), (t) => t.get(actor.tenantId)),
        (tenant) =>
          Option.isNone(tenant)
            ? Effect.fail(new TenantNotFound())
            : Effect.succeed(memberKeyScopesOf(tenant.value, scopeSet))
      )
    : Effect.succeed(scopeSet.scopes)

export interface AppAuthorization {
  readonly scopeSet: ScopeSet
  readonly clientId: string
  readonly clientName: string
  /** What the application asked for. */
  readonly requestedScopes: ReadonlyArray<string>
  /** What the person ticked. */
  readonly chosenScopes: ReadonlyArray<string>
}

/**
 * Checks the person's choice and records `app.authorized`; the scopes to grant. At least one
 * scope, each asked for by the application; a member only the scopes members may grant.
 */
export const authorizeApp = (
  actor: ConsoleActor,
  input: AppAuthorization
): Effect.Effect<
  ReadonlyArray<string>,
  NotAllowed | InvalidScopeList | ScopeNotAllowed | TenantNotFound | StorageError,
  TenantRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "authorizeApp")
    const known = input.scopeSet.scopes
    const chosen = known.filter((s) => input.chosenScopes.includes(s))
    const unknown = input.chosenScopes.findIndex(
      (s) => !known.includes(s) || !input.requestedScopes.includes(s)
    )
    if (chosen.length === 0 || unknown >= 0)
      return yield* new InvalidScopeList({
        known,
        issues: [{ path: ["scopes", Math.max(unknown, 0)], rule: unknown >= 0 ? "enum" : "required" }]
      })
    const allowed = yield* grantableScopes(actor, input.scopeSet)
    if (chosen.some((s) => !allowed.includes(s))) return yield* new ScopeNotAllowed({ allowed })
    yield* audit(actor.tenantId, {
      action: "app.authorized",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: input.clientId.slice(0, 500),
      ip: actor.ip,
      details: {
        service: input.scopeSet.service,
        client: input.clientName.slice(0, 200),
        scopes: chosen.join(",")
      }
    })
    return chosen
  })
