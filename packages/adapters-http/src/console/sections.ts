// Each console section's page for the person acting: what it reads through the use cases and how it
// renders, with an optional error (a refused post re-renders its section) or notice (after a 303).
import {
  type ConsoleActor,
  evaluateFeatures,
  FORMS_SCOPE_SET,
  listAudit,
  listConnectedApps,
  listInvitations,
  listKeys,
  listMembers,
  listPasskeys,
  listSessions,
  memberKeyScopesOf,
  mayRun,
  type ScopeSet,
  SHARING_SCOPE_SET,
  TenantNotFound,
  TenantRepository,
  workspaceOf
} from "@folio/domain"
import { Clock, Effect, Option } from "effect"
import type { Html } from "../shared/html.js"
import { type Acting, type ConsoleDeps, runOn, signedInChrome } from "./context.js"
import type { Section } from "./layout.js"
import { renderAccountPage } from "./pages/account.js"
import { renderAppsPage } from "./pages/apps.js"
import { AUDIT_PAGE_SIZE, renderAuditPage } from "./pages/audit.js"
import { type CreatedKey, type KeysView, renderKeysPage } from "./pages/keys.js"
import { type MembersView, renderMembersPage } from "./pages/members.js"
import { renderSettingsPage } from "./pages/settings.js"

/** The texts a 303 may ask a page to show (`?notice=`): fixed, so nothing is reflected. */
export const NOTICES: Readonly<Record<string, string>> = {
  "key-revoked": "The key is revoked: it stops working within 5 seconds.",
  "app-revoked": "The app is disconnected: its tokens are refused from now on.",
  "role-changed": "The role is changed.",
  "member-removed": "The member is removed and signed out of this workspace.",
  "invitation-revoked": "The invitation is revoked.",
  "settings-saved": "Saved.",
  "workspace-disabled": "The workspace is disabled: its keys are refused.",
  "workspace-enabled": "The workspace is enabled again.",
  "workspace-switched": "Workspace switched.",
  "left-workspace": "You left the workspace.",
  "name-saved": "Your name is saved.",
  "password-changed": "Your password is changed; your other sessions are signed out.",
  "password-removed": "Your password is removed: you sign in with a passkey.",
  "passkey-added": "The passkey is added.",
  "passkey-removed": "The passkey is removed.",
  "session-revoked": "That session is signed out.",
  "sessions-revoked": "Every other session is signed out.",
  "password-reset": "Your password is changed. Sign in with it.",
  "signed-out": "You are signed out.",
  joined: "Welcome: you joined the workspace."
}

export const noticeOf = (code: string | null): string | undefined =>
  code === null ? undefined : NOTICES[code]

export const SECTION_TITLES: Readonly<Record<Section, string>> = {
  keys: "API keys",
  apps: "Connected apps",
  members: "Members",
  settings: "Workspace settings",
  audit: "Audit log",
  account: "Account"
}

export const SCOPE_SETS: ReadonlyArray<{ readonly set: ScopeSet; readonly label: string }> = [
  { set: FORMS_SCOPE_SET, label: "Forms" },
  { set: SHARING_SCOPE_SET, label: "Sharing" }
]

export interface SectionExtras {
  readonly error?: string | undefined
  readonly notice?: string | undefined
  readonly created?: CreatedKey
  readonly keyValues?: KeysView["values"]
  readonly invited?: MembersView["invited"]
  /** The audit page's cursor. */
  readonly before?: string | undefined
}

const tenantOf = (actor: ConsoleActor) =>
  Effect.flatMap(
    Effect.flatMap(Effect.service(TenantRepository), (tenants) => tenants.get(actor.tenantId)),
    Option.match({ onNone: () => Effect.fail(new TenantNotFound()), onSome: Effect.succeed })
  )

const keysPage = (actor: ConsoleActor, extras: SectionExtras) =>
  Effect.gen(function* () {
    const keys = yield* listKeys(actor)
    const tenant = yield* tenantOf(actor)
    const now = new Date(yield* Clock.currentTimeMillis)
    const services = SCOPE_SETS.map(({ set, label }) => ({
      service: set.service,
      label,
      scopes: actor.role === "member" ? memberKeyScopesOf(tenant, set) : set.scopes
    }))
    return (chrome: Parameters<typeof renderKeysPage>[0]) =>
      renderKeysPage(
        chrome,
        {
          role: actor.role,
          userId: actor.userId,
          keys,
          services,
          ...(extras.created === undefined ? {} : { created: extras.created }),
          ...(extras.keyValues === undefined ? {} : { values: extras.keyValues }),
          ...(extras.error === undefined ? {} : { error: extras.error }),
          ...(extras.notice === undefined ? {} : { notice: extras.notice })
        },
        now
      )
  })

const appsPage = (actor: ConsoleActor, extras: SectionExtras) =>
  Effect.gen(function* () {
    const apps = yield* listConnectedApps(actor)
    return (chrome: Parameters<typeof renderAppsPage>[0]) =>
      renderAppsPage(chrome, {
        role: actor.role,
        apps,
        ...(extras.error === undefined ? {} : { error: extras.error }),
        ...(extras.notice === undefined ? {} : { notice: extras.notice })
      })
  })

const membersPage = (actor: ConsoleActor, extras: SectionExtras) =>
  Effect.gen(function* () {
    const members = yield* listMembers(actor)
    const invitations = mayRun(actor.role, "inviteMember") ? yield* listInvitations(actor) : []
    return (chrome: Parameters<typeof renderMembersPage>[0]) =>
      renderMembersPage(chrome, {
        role: actor.role,
        userId: actor.userId,
        members,
        invitations,
        ...(extras.invited === undefined ? {} : { invited: extras.invited }),
        ...(extras.error === undefined ? {} : { error: extras.error }),
        ...(extras.notice === undefined ? {} : { notice: extras.notice })
      })
  })

const settingsPage = (actor: ConsoleActor, extras: SectionExtras) =>
  Effect.gen(function* () {
    const tenant = yield* workspaceOf(actor)
    return (chrome: Parameters<typeof renderSettingsPage>[0]) =>
      renderSettingsPage(chrome, {
        role: actor.role,
        name: tenant.name,
        disabled: tenant.disabledAt !== null,
        features: evaluateFeatures(tenant.features),
        memberScopes: SCOPE_SETS.map(({ set, label }) => ({
          service: set.service,
          label,
          all: set.scopes,
          allowed: memberKeyScopesOf(tenant, set)
        })),
        ...(extras.error === undefined ? {} : { error: extras.error }),
        ...(extras.notice === undefined ? {} : { notice: extras.notice })
      })
  })

const auditPage = (actor: ConsoleActor, extras: SectionExtras) =>
  Effect.gen(function* () {
    const page = yield* listAudit(actor, { before: extras.before ?? null, limit: AUDIT_PAGE_SIZE })
    return (chrome: Parameters<typeof renderAuditPage>[0]) =>
      renderAuditPage(chrome, { events: page.events, older: page.nextBefore ?? undefined })
  })

const accountPage = (acting: Acting, extras: SectionExtras) =>
  Effect.gen(function* () {
    const passkeys = yield* listPasskeys(acting.user.id)
    const sessions = yield* listSessions(acting.user.id)
    return (chrome: Parameters<typeof renderAccountPage>[0]) =>
      renderAccountPage(chrome, {
        email: acting.user.email,
        displayName: acting.user.displayName,
        hasPassword: acting.user.passwordHash !== null,
        passkeys,
        sessions,
        currentSessionId: acting.session.id,
        ...(extras.error === undefined ? {} : { error: extras.error }),
        ...(extras.notice === undefined ? {} : { notice: extras.notice })
      })
  })

/**
 * A section's page for the person acting; fails with NotAMember when a workspace section is asked
 * by a person with no workspace, and with the use cases' errors (NotAllowed for a role that may
 * not see it).
 */
export const sectionPage = (
  deps: ConsoleDeps,
  acting: Acting,
  nonce: string,
  section: Section,
  extras: SectionExtras = {}
) =>
  Effect.gen(function* () {
    const render: (chrome: Parameters<typeof renderAccountPage>[0]) => Html =
      section === "account"
        ? yield* runOn(deps)(accountPage(acting, extras))
        : yield* (() => {
            const actor = acting.actor
            if (actor === null) return Effect.fail({ _tag: "NoWorkspace" as const })
            switch (section) {
              case "keys":
                return runOn(deps)(keysPage(actor, extras))
              case "apps":
                return runOn(deps)(appsPage(actor, extras))
              case "members":
                return runOn(deps)(membersPage(actor, extras))
              case "settings":
                return runOn(deps)(settingsPage(actor, extras))
              case "audit":
                return runOn(deps)(auditPage(actor, extras))
            }
          })()
    const chrome = yield* signedInChrome(deps, acting, nonce, SECTION_TITLES[section], section)
    return render(chrome)
  })
