// Members and keys from the console on the memory store: the last owner cannot leave or be demoted
// or removed (also when two owners demote each other at once), admins cannot remove owners; members
// create keys only within the workspace's member scopes and revoke only their own; expiry is
// checked; the audit log names keys by id and never holds one.
import {
  AuditLog,
  changeRole,
  createKey,
  FORMS_SCOPE_SET,
  leaveWorkspace,
  listKeys,
  listMembers,
  memberKeyScopesOf,
  removeMember,
  revokeKey,
  SHARING_SCOPE_SET,
  setMemberKeyScopes,
  TenantRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { actorOf, addMember, createPerson, PeopleTestLive, workspaceWithOwner } from "../support/people.js"

const tagOf = (r: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(r) ? r.failure._tag : "ok"

describe("members", () => {
  it.effect("keep at least one owner; admins cannot touch owners", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const admin = yield* createPerson("admin@example.com")
      yield* addMember(tenant.id, admin, "admin")
      const asOwner = actorOf(owner, tenant.id, "owner")
      const asAdmin = actorOf(admin, tenant.id, "admin")
      expect(tagOf(yield* Effect.result(leaveWorkspace(asOwner)))).toBe("LastOwner")
      expect(tagOf(yield* Effect.result(changeRole(asOwner, owner.id, "admin")))).toBe("LastOwner")
      expect(tagOf(yield* Effect.result(removeMember(asOwner, owner.id)))).toBe("LastOwner")
      expect(tagOf(yield* Effect.result(removeMember(asAdmin, owner.id)))).toBe("NotAllowed")
      expect(tagOf(yield* Effect.result(changeRole(asAdmin, owner.id, "member")))).toBe("NotAllowed")
      expect(tagOf(yield* Effect.result(changeRole(asAdmin, admin.id, "owner")))).toBe("NotAllowed")
      expect(
        tagOf(yield* Effect.result(changeRole(asOwner, "00000000-0000-7000-8000-000000000000", "member")))
      ).toBe("MemberNotFound")

      // Two owners demoting each other at once leave one.
      yield* changeRole(asOwner, admin.id, "owner")
      const [a, b] = yield* Effect.all(
        [
          Effect.result(changeRole(asOwner, admin.id, "member")),
          Effect.result(changeRole(actorOf(admin, tenant.id, "owner"), owner.id, "member"))
        ],
        { concurrency: 2 }
      )
      expect([tagOf(a), tagOf(b)].sort()).toEqual(["LastOwner", "ok"])
      const members = yield* listMembers(asOwner)
      expect(members.filter((m) => m.role === "owner")).toHaveLength(1)
      const events = (yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 10 })).events
      expect(events.map((e) => e.action)).toEqual(["member.role_changed", "member.role_changed"])
    }).pipe(Effect.provide(PeopleTestLive))
  )
})

describe("keys from the console", () => {
  it.effect("members create keys only with the member scopes and revoke only their own", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const member = yield* createPerson("member@example.com")
      yield* addMember(tenant.id, member, "member")
      const asOwner = actorOf(owner, tenant.id, "owner")
      const asMember = actorOf(member, tenant.id, "member")
      const make = (actor: typeof asOwner, scopes: ReadonlyArray<string>, scopeSet = FORMS_SCOPE_SET) =>
        Effect.result(createKey(actor, { scopeSet, name: " ci ", scopes, expiresAt: null }))

      expect(tagOf(yield* make(asMember, ["forms:write"]))).toBe("ScopeNotAllowed")
      const mine = yield* make(asMember, ["forms:read", "responses:read"])
      expect(tagOf(mine)).toBe("ok")
      if (Result.isSuccess(mine)) {
        expect(mine.success.record.createdBy).toBe(member.id)
        expect(mine.success.record.name).toBe("ci")
      }
      expect(tagOf(yield* make(asMember, ["read"], SHARING_SCOPE_SET))).toBe("ok")
      expect(tagOf(yield* make(asOwner, ["forms:write", "forms:publish"]))).toBe("ok")
      expect(tagOf(yield* make(asOwner, []))).toBe("InvalidScopeList")
      expect(tagOf(yield* make(asOwner, ["nope"]))).toBe("InvalidScopeList")

      // An admin narrows what members may do.
      yield* setMemberKeyScopes(asOwner, FORMS_SCOPE_SET, ["forms:read"])
      const tenantNow = Option.getOrThrow(yield* (yield* TenantRepository).get(tenant.id))
      expect(memberKeyScopesOf(tenantNow, FORMS_SCOPE_SET)).toEqual(["forms:read"])
      expect(memberKeyScopesOf(tenantNow, SHARING_SCOPE_SET)).toEqual(SHARING_SCOPE_SET.memberDefaults)
      expect(tagOf(yield* make(asMember, ["responses:read"]))).toBe("ScopeNotAllowed")

      const keys = yield* listKeys(asMember)
      const ownersKey = keys.find((k) => k.createdBy === owner.id)
      const membersKey = keys.find((k) => k.createdBy === member.id)
      expect(ownersKey?.createdByEmail).toBe("owner@example.com")
      expect(membersKey?.createdByEmail).toBe("member@example.com")
      expect(tagOf(yield* Effect.result(revokeKey(asMember, ownersKey?.id ?? "")))).toBe("NotAllowed")
      yield* revokeKey(asMember, membersKey?.id ?? "")
      yield* revokeKey(asOwner, ownersKey?.id ?? "")
      expect(tagOf(yield* Effect.result(revokeKey(asOwner, ownersKey?.id ?? "")))).toBe("ApiKeyNotFound")

      const events = (yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 50 })).events
      expect(events.filter((e) => e.action === "key.created")).toHaveLength(3)
      expect(
        events
          .filter((e) => e.action === "key.revoked")
          .map((e) => e.target)
          .sort()
      ).toEqual([ownersKey?.id, membersKey?.id].sort())
      const logged = JSON.stringify(events)
      if (Result.isSuccess(mine)) expect(logged).not.toContain(mine.success.plaintext)
      for (const key of keys) expect(logged).not.toContain(key.hash)
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("accept an expiry in the future within ten years only", () =>
    Effect.gen(function* () {
      yield* TestClock.adjust(1_000_000)
      const { tenant, owner } = yield* workspaceWithOwner()
      const asOwner = actorOf(owner, tenant.id, "owner")
      const at = (ms: number) =>
        Effect.result(
          createKey(asOwner, {
            scopeSet: FORMS_SCOPE_SET,
            name: "k",
            scopes: ["forms:read"],
            expiresAt: new Date(ms)
          })
        )
      expect(tagOf(yield* at(1_000_000))).toBe("InvalidExpiry")
      expect(tagOf(yield* at(999_999))).toBe("InvalidExpiry")
      expect(tagOf(yield* at(1_000_000 + 11 * 366 * 86_400_000))).toBe("InvalidExpiry")
      const ok = yield* at(1_000_000 + 86_400_000)
      expect(tagOf(ok)).toBe("ok")
      if (Result.isSuccess(ok)) expect(ok.success.record.expiresAt?.getTime()).toBe(1_000_000 + 86_400_000)
      expect(
        tagOf(
          yield* Effect.result(
            createKey(asOwner, {
              scopeSet: FORMS_SCOPE_SET,
              name: "  ",
              scopes: ["forms:read"],
              expiresAt: null
            })
          )
        )
      ).toBe("InvalidKeyName")
    }).pipe(Effect.provide(PeopleTestLive))
  )
})
