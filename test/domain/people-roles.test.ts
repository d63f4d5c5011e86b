// The console's role table, enforced by the use cases themselves: for every operation, each role the
// table does not list is refused with NotAllowed by the use case that runs it (on the memory store),
// and each listed role gets past the check.
import {
  authorizeApp,
  CONSOLE_OPERATIONS,
  CONSOLE_OPERATION_NAMES,
  type ConsoleActor,
  type ConsoleOperation,
  changeRole,
  changeWorkspaceFeaturesAs,
  createKey,
  FORMS_SCOPE_SET,
  inviteMember,
  leaveWorkspace,
  listAudit,
  listConnectedApps,
  listKeys,
  listMembers,
  renameWorkspace,
  revokeConnectedApp,
  revokeInvitation,
  revokeKey,
  ROLES,
  removeMember,
  type Role,
  setMemberKeyScopes,
  setWorkspaceDisabledAs,
  SHARING_SCOPE_SET,
  workspaceOf
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, type Layer, Result } from "effect"
import { describe, expect } from "vitest"
import { fakeOAuthStore } from "../support/fake-oauth-store.js"
import { actorOf, addMember, createPerson, PeopleTestLive, workspaceWithOwner } from "../support/people.js"

/** One run of the use case behind each console operation, as `actor`. */
type Ports = Layer.Success<typeof PeopleTestLive>
const RUNS: Record<
  ConsoleOperation,
  (actor: ConsoleActor, other: string) => Effect.Effect<unknown, unknown, Ports>
> = {
  viewWorkspace: (a) => workspaceOf(a),
  listKeys: (a) => listKeys(a),
  createKey: (a) =>
    createKey(a, { scopeSet: FORMS_SCOPE_SET, name: "k", scopes: ["forms:read"], expiresAt: null }),
  revokeKey: (a) => revokeKey(a, "00000000-0000-7000-8000-000000000000"),
  listMembers: (a) => listMembers(a),
  inviteMember: (a) => inviteMember(a, { email: "new@example.com", role: "member" }),
  revokeInvitation: (a) => revokeInvitation(a, "00000000-0000-7000-8000-000000000000"),
  changeRole: (a, other) => changeRole(a, other, "member"),
  removeMember: (a, other) => removeMember(a, other),
  leaveWorkspace: (a) => leaveWorkspace(a),
  viewSettings: (a) => workspaceOf(a),
  renameWorkspace: (a) => renameWorkspace(a, "Renamed"),
  changeFeatures: (a) => changeWorkspaceFeaturesAs(a, { enable: ["ranking"], disable: [] }),
  changeMemberKeyScopes: (a) => setMemberKeyScopes(a, FORMS_SCOPE_SET, ["forms:read"]),
  disableWorkspace: (a) => setWorkspaceDisabledAs(a, true),
  viewAudit: (a) => listAudit(a, { before: null, limit: 10 }),
  listConnectedApps: (a) => Effect.provide(listConnectedApps(a), fakeOAuthStore().layer),
  revokeConnectedApp: (a) => Effect.provide(revokeConnectedApp(a, "no-such-grant"), fakeOAuthStore().layer),
  authorizeApp: (a) =>
    authorizeApp(a, {
      scopeSet: SHARING_SCOPE_SET,
      clientId: "https://agent.example/client.json",
      clientName: "Agent",
      requestedScopes: ["read"],
      chosenScopes: ["read"]
    })
}

const refusal = (result: Result.Result<unknown, unknown>) =>
  Result.isFailure(result) ? (result.failure as { _tag?: string })._tag : undefined

describe("the console role table", () => {
  it.effect("every operation refuses each role it does not list, with NotAllowed, in its use case", () =>
    Effect.gen(function* () {
      let refusals = 0
      for (const operation of CONSOLE_OPERATION_NAMES) {
        const allowed = CONSOLE_OPERATIONS[operation] as ReadonlyArray<Role>
        for (const role of ROLES) {
          // A fresh store per run: the workspace, the actor with `role`, and a member to act on.
          const result = yield* Effect.gen(function* () {
            const { tenant } = yield* workspaceWithOwner()
            const person = yield* createPerson(`acting-${role}@example.com`)
            yield* addMember(tenant.id, person, role)
            const other = yield* createPerson("other@example.com")
            yield* addMember(tenant.id, other, "member")
            const actor = actorOf(person, tenant.id, role)
            return yield* Effect.result(RUNS[operation](actor, other.id))
          }).pipe(Effect.provide(PeopleTestLive))
          if (allowed.includes(role))
            expect(refusal(result), `${operation} as ${role}`).not.toBe("NotAllowed")
          else {
            expect(refusal(result), `${operation} as ${role}`).toBe("NotAllowed")
            refusals++
          }
        }
      }
      // Owners run everything; admins lose disableWorkspace, members every row that omits them.
      expect(refusals).toBe(
        CONSOLE_OPERATION_NAMES.reduce((n, op) => n + ROLES.length - CONSOLE_OPERATIONS[op].length, 0)
      )
      expect(refusals).toBeGreaterThan(8)
    })
  )
})
