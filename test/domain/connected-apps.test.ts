// Connected apps from the console, on a fake OAuth store: owners and admins list and revoke every
// app of their workspace, members only their own; another workspace's grant is neither listed nor
// revocable; a revocation removes the grant's tokens and is audited without any token in it.
import {
  AuditLog,
  listConnectedApps,
  OAuthStore,
  rememberClientName,
  revokeConnectedApp
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import { describe, expect } from "vitest"
import { fakeOAuthStore } from "../support/fake-oauth-store.js"
import { clientRecord, grantRecords } from "../support/oauth-grants.js"
import { actorOf, addMember, createPerson, PeopleTestLive, workspaceWithOwner } from "../support/people.js"

const tagOf = (r: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(r) ? r.failure._tag : "ok"

const AT = new Date("2026-12-01T10:00:00Z")

/** A workspace with an owner, an admin and two members, two apps connected, and another workspace's app. */
const world = Effect.gen(function* () {
  const { tenant, owner } = yield* workspaceWithOwner()
  const admin = yield* createPerson("admin@example.com")
  const ann = yield* createPerson("ann@example.com")
  const bob = yield* createPerson("bob@example.com")
  yield* addMember(tenant.id, admin, "admin")
  yield* addMember(tenant.id, ann, "member")
  yield* addMember(tenant.id, bob, "member")
  const other = yield* workspaceWithOwner("Other", "other-owner@example.com")
  const store = yield* OAuthStore
  const put = (records: ReturnType<typeof grantRecords>, at: Date) =>
    Effect.forEach(records, (r) => store.upsert(r, at), { discard: true })
  yield* store.upsert(clientRecord("client-registered", "Claude Desktop"), AT)
  yield* put(
    grantRecords({
      grantId: "grant-ann",
      tenantId: tenant.id,
      userId: ann.id,
      clientId: "client-registered",
      scopes: "read write"
    }),
    AT
  )
  yield* put(
    grantRecords({
      grantId: "grant-bob",
      tenantId: tenant.id,
      userId: bob.id,
      clientId: "https://app.example.test/oauth/client.json",
      scopes: "read"
    }),
    new Date(AT.getTime() + 60_000)
  )
  yield* put(
    grantRecords({
      grantId: "grant-other",
      tenantId: other.tenant.id,
      userId: other.owner.id,
      clientId: "client-registered",
      scopes: "read write delete"
    }),
    AT
  )
  return {
    tenant,
    other,
    owner: actorOf(owner, tenant.id, "owner"),
    admin: actorOf(admin, tenant.id, "admin"),
    ann: actorOf(ann, tenant.id, "member"),
    bob: actorOf(bob, tenant.id, "member")
  }
})

const withStore = <A, E, R>(run: (fake: ReturnType<typeof fakeOAuthStore>) => Effect.Effect<A, E, R>) => {
  const fake = fakeOAuthStore()
  return Effect.provide(run(fake), Layer.mergeAll(PeopleTestLive, fake.layer))
}

describe("connected apps", () => {
  it.effect(
    "owners and admins see every app of the workspace, newest first, with its person, name and scopes",
    () =>
      withStore(() =>
        Effect.gen(function* () {
          const w = yield* world
          for (const actor of [w.owner, w.admin]) {
            const apps = yield* listConnectedApps(actor)
            expect(apps.map((a) => a.grantId)).toEqual(["grant-bob", "grant-ann"])
            const [bob, ann] = apps
            expect(ann).toMatchObject({
              clientId: "client-registered",
              clientName: "Claude Desktop",
              scopes: ["read", "write"],
              email: "ann@example.com",
              grantedAt: AT,
              lastUsedAt: null
            })
            // A client without a registered name (a metadata document URL) is shown by its id.
            expect(bob).toMatchObject({
              clientName: "https://app.example.test/oauth/client.json",
              scopes: ["read"],
              email: "bob@example.com"
            })
          }
        })
      )
  )

  it.effect("a metadata-document client is shown by the name it gave at consent", () =>
    withStore(() =>
      Effect.gen(function* () {
        const w = yield* world
        const url = "https://app.example.test/oauth/client.json"
        yield* rememberClientName(url, "  Example Agent  ")
        const apps = yield* listConnectedApps(w.owner)
        expect(apps.find((a) => a.clientId === url)?.clientName).toBe("Example Agent")
        // A registered client's own metadata still names it, whatever was remembered.
        yield* rememberClientName("client-registered", "Something else")
        expect((yield* listConnectedApps(w.owner)).find((a) => a.grantId === "grant-ann")?.clientName).toBe(
          "Claude Desktop"
        )
      })
    )
  )

  it.effect("members see only the apps they connected", () =>
    withStore(() =>
      Effect.gen(function* () {
        const w = yield* world
        expect((yield* listConnectedApps(w.ann)).map((a) => a.grantId)).toEqual(["grant-ann"])
        expect((yield* listConnectedApps(w.bob)).map((a) => a.grantId)).toEqual(["grant-bob"])
      })
    )
  )

  it.effect("a member revokes their own app but not another member's", () =>
    withStore((fake) =>
      Effect.gen(function* () {
        const w = yield* world
        expect(tagOf(yield* Effect.result(revokeConnectedApp(w.ann, "grant-bob")))).toBe("NotAllowed")
        expect((yield* listConnectedApps(w.owner)).map((a) => a.grantId)).toEqual(["grant-bob", "grant-ann"])
        yield* revokeConnectedApp(w.ann, "grant-ann")
        expect((yield* listConnectedApps(w.owner)).map((a) => a.grantId)).toEqual(["grant-bob"])
        // The grant's tokens went with it.
        expect([...fake.records.values()].some((r) => r.grantId === "grant-ann")).toBe(false)
        expect([...fake.records.values()].some((r) => r.grantId === "grant-bob")).toBe(true)
      })
    )
  )

  it.effect("an admin revokes anyone's app; the audit log names the app and the grant, never a token", () =>
    withStore((fake) =>
      Effect.gen(function* () {
        const w = yield* world
        yield* revokeConnectedApp(w.admin, "grant-ann")
        expect(tagOf(yield* Effect.result(revokeConnectedApp(w.admin, "grant-ann")))).toBe(
          "ConnectedAppNotFound"
        )
        expect(fake.records.has("AccessToken\u0000at-grant-ann")).toBe(false)
        const events = (yield* (yield* AuditLog).list(w.tenant.id, { before: null, limit: 10 })).events
        expect(events.map((e) => e.action)).toEqual(["app.revoked"])
        expect(events[0]).toMatchObject({
          actorEmail: "admin@example.com",
          target: "grant-ann",
          details: {
            service: "sharing",
            client: "Claude Desktop",
            clientId: "client-registered",
            scopes: "read,write",
            connectedBy: "ann@example.com"
          }
        })
        expect(JSON.stringify(events)).not.toContain("at-grant-ann")
      })
    )
  )

  it.effect("another workspace's grant is neither listed nor revoked, even by an owner", () =>
    withStore((fake) =>
      Effect.gen(function* () {
        const w = yield* world
        expect((yield* listConnectedApps(w.owner)).map((a) => a.grantId)).not.toContain("grant-other")
        expect(tagOf(yield* Effect.result(revokeConnectedApp(w.owner, "grant-other")))).toBe(
          "ConnectedAppNotFound"
        )
        expect(tagOf(yield* Effect.result(revokeConnectedApp(w.owner, "no-such-grant")))).toBe(
          "ConnectedAppNotFound"
        )
        expect(fake.records.has("Grant\u0000grant-other")).toBe(true)
        expect((yield* (yield* AuditLog).list(w.tenant.id, { before: null, limit: 10 })).events).toEqual([])
        expect(
          (yield* listConnectedApps(actorOf(w.other.owner, w.other.tenant.id, "owner"))).map((a) => a.grantId)
        ).toEqual(["grant-other"])
      })
    )
  )
})
