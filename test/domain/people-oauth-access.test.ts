// OAuth consent and token principals on the memory store: a member grants an application only the
// scopes members' keys may carry and nothing it did not ask for, every consent is audited without a
// secret; a token's principal is re-checked on each use (membership, disabled workspace) and its
// scopes capped by the person's role now.
import { AuditLog, authorizeApp, principalOfGrant, SHARING_SCOPE_SET, TenantRepository } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { describe, expect } from "vitest"
import { actorOf, addMember, createPerson, PeopleTestLive, workspaceWithOwner } from "../support/people.js"
import { MembershipRepository } from "@folio/domain"

const tagOf = (r: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(r) ? r.failure._tag : "ok"

const app = (requested: ReadonlyArray<string>, chosen: ReadonlyArray<string>) => ({
  scopeSet: SHARING_SCOPE_SET,
  clientId: "https://client.example/metadata.json",
  clientName: "Client",
  requestedScopes: requested,
  chosenScopes: chosen
})

describe("authorizeApp", () => {
  it.effect("grants what was asked and allowed, and audits it", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const member = yield* createPerson("member@example.com")
      yield* addMember(tenant.id, member, "member")
      const asOwner = actorOf(owner, tenant.id, "owner")
      const asMember = actorOf(member, tenant.id, "member")
      expect(yield* authorizeApp(asOwner, app(["read", "write", "delete"], ["delete", "read"]))).toEqual([
        "read",
        "delete"
      ])
      // Nothing, or more than the application asked for, or an unknown scope.
      expect(tagOf(yield* Effect.result(authorizeApp(asOwner, app(["read"], []))))).toBe("InvalidScopeList")
      expect(tagOf(yield* Effect.result(authorizeApp(asOwner, app(["read"], ["write"]))))).toBe(
        "InvalidScopeList"
      )
      expect(tagOf(yield* Effect.result(authorizeApp(asOwner, app(["read", "admin"], ["admin"]))))).toBe(
        "InvalidScopeList"
      )
      // Members: the workspace's member scopes for sharing (read by default).
      expect(yield* authorizeApp(asMember, app(["read", "write"], ["read"]))).toEqual(["read"])
      expect(tagOf(yield* Effect.result(authorizeApp(asMember, app(["read", "write"], ["write"]))))).toBe(
        "ScopeNotAllowed"
      )
      const events = (yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 10 })).events
      expect(events.map((e) => e.action)).toEqual(["app.authorized", "app.authorized"])
      expect(events.map((e) => e.details)).toContainEqual({
        service: "sharing",
        client: "Client",
        scopes: "read,delete"
      })
      expect(events.map((e) => e.details)).toContainEqual({
        service: "sharing",
        client: "Client",
        scopes: "read"
      })
      expect(events.every((e) => e.target === "https://client.example/metadata.json")).toBe(true)
    }).pipe(Effect.provide(PeopleTestLive))
  )
})

describe("principalOfGrant", () => {
  it.effect("is re-checked on each use: membership, disabled workspace, the role's scopes now", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const member = yield* createPerson("member@example.com")
      yield* addMember(tenant.id, member, "member")
      const grant = (userId: string) => ({
        grantId: "g1",
        clientId: "c1",
        tenantId: tenant.id,
        userId,
        scopes: ["read", "write", "delete"]
      })
      expect(yield* principalOfGrant(grant(owner.id), SHARING_SCOPE_SET)).toEqual({
        tenant: tenant.id,
        service: "sharing",
        scopes: ["read", "write", "delete"],
        keyId: "grant:g1"
      })
      // A member's token holds only what members may grant now, whatever it was issued with.
      expect((yield* principalOfGrant(grant(member.id), SHARING_SCOPE_SET)).scopes).toEqual(["read"])
      yield* (yield* TenantRepository).setMemberKeyScopes(tenant.id, "sharing", ["read", "write"])
      expect((yield* principalOfGrant(grant(member.id), SHARING_SCOPE_SET)).scopes).toEqual(["read", "write"])
      // Removed from the workspace: the token is refused like an unknown one.
      yield* (yield* MembershipRepository).remove(tenant.id, member.id)
      expect(tagOf(yield* Effect.result(principalOfGrant(grant(member.id), SHARING_SCOPE_SET)))).toBe(
        "Unauthorized"
      )
      yield* (yield* TenantRepository).setDisabled(tenant.id, new Date())
      expect(tagOf(yield* Effect.result(principalOfGrant(grant(owner.id), SHARING_SCOPE_SET)))).toBe(
        "AccountDisabled"
      )
    }).pipe(Effect.provide(PeopleTestLive))
  )
})
