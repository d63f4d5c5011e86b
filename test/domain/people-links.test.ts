// Invitations, the setup link and password resets on the memory store: single use, expiry, only
// owners invite owners, AlreadyMember, SignInToAccept, a reset that reveals nothing about accounts,
// works once and signs every session out; e-mails captured from the Mailer port.
import {
  acceptInvitation,
  AuditLog,
  createSetupLink,
  createTenant,
  describeLink,
  describeReset,
  inviteAsOperator,
  inviteMember,
  issueResetLink,
  listInvitations,
  type MailMessage,
  Mailer,
  MembershipRepository,
  requestPasswordReset,
  resetPassword,
  resolveSession,
  revokeInvitation,
  signInWithPassword
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Option, Result } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import {
  actorOf,
  addMember,
  createPerson,
  PASSWORD,
  PeopleTestLive,
  workspaceWithOwner
} from "../support/people.js"

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1)
const tagOf = (r: Result.Result<unknown, { readonly _tag: string }>) =>
  Result.isFailure(r) ? r.failure._tag : "ok"

const capture = () => {
  const sent: Array<MailMessage> = []
  return { sent, mailer: { send: (m: MailMessage) => Effect.sync(() => void sent.push(m)) } }
}

const newAccount = (token: string) =>
  acceptInvitation({
    token,
    signedIn: null,
    displayName: "New Person",
    password: "a long new password",
    ip: null,
    userAgent: null
  })

describe("invitations", () => {
  it.effect("are mailed, accepted once by creating an account, and dead after use or expiry", () => {
    const mail = capture()
    return Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const actor = actorOf(owner, tenant.id, "owner")
      const sent = yield* inviteMember(actor, { email: "New@Example.com", role: "admin" })
      expect(sent.mailed).toBe(true)
      expect(mail.sent.map((m) => m.to)).toEqual(["new@example.com"])
      expect(mail.sent[0]?.text).toContain(sent.url)
      expect(sent.url.startsWith("http://localhost:8080/invitations/")).toBe(true)
      expect(yield* listInvitations(actor)).toHaveLength(1)
      const description = yield* describeLink(tokenOf(sent.url))
      expect(description).toEqual({
        kind: "invitation",
        workspaceName: "Acme",
        email: "new@example.com",
        role: "admin",
        accountExists: false
      })
      // Input is checked before the link is used up.
      const weak = yield* Effect.result(
        acceptInvitation({
          token: tokenOf(sent.url),
          signedIn: null,
          displayName: "N",
          password: "short",
          ip: null,
          userAgent: null
        })
      )
      expect(tagOf(weak)).toBe("WeakPassword")
      const accepted = yield* newAccount(tokenOf(sent.url))
      expect(accepted.user.email).toBe("new@example.com")
      expect(accepted.started?.session.tenantId).toBe(tenant.id)
      expect(
        Option.getOrThrow(yield* (yield* MembershipRepository).get(tenant.id, accepted.user.id)).role
      ).toBe("admin")
      expect(tagOf(yield* Effect.result(newAccount(tokenOf(sent.url))))).toBe("LinkInvalid")
      expect(tagOf(yield* Effect.result(describeLink(tokenOf(sent.url))))).toBe("LinkInvalid")
      expect(yield* listInvitations(actor)).toHaveLength(0)

      const late = yield* inviteMember(actor, { email: "late@example.com", role: "member" })
      yield* TestClock.adjust(7 * 86_400_000)
      expect(tagOf(yield* Effect.result(newAccount(tokenOf(late.url))))).toBe("LinkInvalid")

      const events = (yield* (yield* AuditLog).list(tenant.id, { before: null, limit: 10 })).events
      expect(events.map((e) => e.action).sort()).toEqual([
        "member.invited",
        "member.invited",
        "member.joined"
      ])
      expect(JSON.stringify(events)).not.toContain(tokenOf(sent.url))
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(Mailer, mail.mailer))
  })

  it.effect("of owners come only from owners; members and existing members are refused", () =>
    Effect.gen(function* () {
      const { tenant, owner } = yield* workspaceWithOwner()
      const admin = yield* createPerson("admin@example.com")
      yield* addMember(tenant.id, admin, "admin")
      const asAdmin = actorOf(admin, tenant.id, "admin")
      expect(
        tagOf(yield* Effect.result(inviteMember(asAdmin, { email: "x@example.com", role: "owner" })))
      ).toBe("NotAllowed")
      expect(
        tagOf(yield* Effect.result(inviteMember(asAdmin, { email: "x@example.com", role: "admin" })))
      ).toBe("ok")
      expect(
        tagOf(yield* Effect.result(inviteMember(asAdmin, { email: "OWNER@example.com", role: "member" })))
      ).toBe("AlreadyMember")
      expect(
        tagOf(yield* Effect.result(inviteMember(asAdmin, { email: "not an address", role: "member" })))
      ).toBe("InvalidEmail")
      // Without a Mailer the link is answered, not mailed.
      const sent = yield* inviteMember(actorOf(owner, tenant.id, "owner"), {
        email: "co@example.com",
        role: "owner"
      })
      expect(sent.mailed).toBe(false)
      yield* revokeInvitation(asAdmin, sent.invitation.id)
      expect(tagOf(yield* Effect.result(newAccount(tokenOf(sent.url))))).toBe("LinkInvalid")
      expect(tagOf(yield* Effect.result(revokeInvitation(asAdmin, sent.invitation.id)))).toBe(
        "InvitationNotFound"
      )
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect("for an existing account ask to sign in, then join with that account (its own e-mail only)", () =>
    Effect.gen(function* () {
      const { tenant } = yield* workspaceWithOwner()
      const second = yield* workspaceWithOwner("Second", "second@example.com")
      const { url } = yield* inviteAsOperator({
        tenantId: tenant.id,
        email: "second@example.com",
        role: "member"
      })
      expect((yield* describeLink(tokenOf(url))).accountExists).toBe(true)
      expect(tagOf(yield* Effect.result(newAccount(tokenOf(url))))).toBe("SignInToAccept")
      const stranger = yield* createPerson("stranger@example.com")
      const wrongPerson = yield* Effect.result(
        acceptInvitation({
          token: tokenOf(url),
          signedIn: { userId: stranger.id },
          ip: null,
          userAgent: null
        })
      )
      expect(tagOf(wrongPerson)).toBe("LinkInvalid")
      const joined = yield* acceptInvitation({
        token: tokenOf(url),
        signedIn: { userId: second.owner.id },
        ip: null,
        userAgent: null
      })
      expect(joined.started).toBeNull()
      expect(Option.isSome(yield* (yield* MembershipRepository).get(tenant.id, second.owner.id))).toBe(true)
      const again = yield* inviteAsOperator({
        tenantId: tenant.id,
        email: "stranger@example.com",
        role: "member"
      })
      yield* addMember(tenant.id, stranger, "member")
      const dup = yield* Effect.result(
        acceptInvitation({
          token: tokenOf(again.url),
          signedIn: { userId: stranger.id },
          ip: null,
          userAgent: null
        })
      )
      expect(tagOf(dup)).toBe("AlreadyMember")
      expect(
        tagOf(
          yield* Effect.result(
            inviteAsOperator({
              tenantId: "00000000-0000-7000-8000-000000000000",
              email: "a@example.com",
              role: "owner"
            })
          )
        )
      ).toBe("TenantNotFound")
    }).pipe(Effect.provide(PeopleTestLive))
  )

  it.effect(
    "the setup link creates the first owner with the e-mail chosen, once; two accepts: one wins",
    () =>
      Effect.gen(function* () {
        // A setup link makes a workspace's first owner: the workspace has nobody yet.
        const tenant = yield* createTenant("Acme")
        const { url } = yield* createSetupLink(tenant.id)
        expect(yield* describeLink(tokenOf(url))).toEqual({
          kind: "setup",
          workspaceName: "Acme",
          email: null,
          role: "owner",
          accountExists: false
        })
        const bad = yield* Effect.result(
          acceptInvitation({
            token: tokenOf(url),
            signedIn: null,
            email: "nope",
            displayName: "F",
            password: "a long new password",
            ip: null,
            userAgent: null
          })
        )
        expect(tagOf(bad)).toBe("InvalidEmail")
        const accept = (email: string) =>
          Effect.result(
            acceptInvitation({
              token: tokenOf(url),
              signedIn: null,
              email,
              displayName: "First",
              password: "a long new password",
              ip: null,
              userAgent: null
            })
          )
        const [a, b] = yield* Effect.all([accept("first@example.com"), accept("rival@example.com")], {
          concurrency: 2
        })
        expect([tagOf(a), tagOf(b)].sort()).toEqual(["LinkInvalid", "ok"])
        const winner = Result.isSuccess(a) ? a.success : Result.isSuccess(b) ? b.success : undefined
        expect(
          Option.getOrThrow(yield* (yield* MembershipRepository).get(tenant.id, winner?.user.id ?? "")).role
        ).toBe("owner")
      }).pipe(Effect.provide(PeopleTestLive))
  )
})

describe("password resets", () => {
  it.effect("answer the same for unknown e-mails, work once, and sign every session out", () => {
    const mail = capture()
    return Effect.gen(function* () {
      const { owner } = yield* workspaceWithOwner()
      const session = yield* signInWithPassword({
        email: owner.email,
        password: PASSWORD,
        ip: null,
        userAgent: null
      })
      yield* requestPasswordReset({ email: "nobody@example.com", ip: "192.0.2.1" })
      expect(mail.sent).toEqual([])
      yield* requestPasswordReset({ email: "first@example.com", ip: "192.0.2.1" })
      yield* requestPasswordReset({ email: "OWNER@example.com", ip: "192.0.2.1" })
      expect(mail.sent.map((m) => m.to)).toEqual(["owner@example.com"])
      const url = /http\S+reset-password\/\S+/.exec(mail.sent[0]?.text ?? "")?.[0] ?? ""
      expect((yield* describeReset(tokenOf(url))).email).toBe("owner@example.com")
      // A newer link replaces it.
      const cli = Option.getOrThrow(yield* issueResetLink("owner@example.com"))
      expect(tagOf(yield* Effect.result(describeReset(tokenOf(url))))).toBe("LinkInvalid")
      expect(Option.isNone(yield* issueResetLink("nobody@example.com"))).toBe(true)
      expect(tagOf(yield* Effect.result(resetPassword({ token: tokenOf(cli.url), password: "short" })))).toBe(
        "WeakPassword"
      )
      yield* resetPassword({ token: tokenOf(cli.url), password: "a brand new password" })
      expect(Option.isNone(yield* resolveSession(session.token))).toBe(true)
      expect(
        tagOf(
          yield* Effect.result(resetPassword({ token: tokenOf(cli.url), password: "another new password" }))
        )
      ).toBe("LinkInvalid")
      const signedIn = yield* Effect.result(
        signInWithPassword({
          email: owner.email,
          password: "a brand new password",
          ip: null,
          userAgent: null
        })
      )
      expect(tagOf(signedIn)).toBe("ok")
      // Expired after an hour.
      const expiring = Option.getOrThrow(yield* issueResetLink("owner@example.com"))
      yield* TestClock.adjust(3_600_000)
      expect(tagOf(yield* Effect.result(describeReset(tokenOf(expiring.url))))).toBe("LinkInvalid")
    }).pipe(Effect.provide(PeopleTestLive), Effect.provideService(Mailer, mail.mailer))
  })
})
