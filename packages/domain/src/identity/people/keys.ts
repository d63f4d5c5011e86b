// API keys from the console: the same issue and revoke use cases as the CLI (provisioning.ts), with
// who created the key recorded. Members create keys only with the scopes the workspace allows them
// and revoke only their own; the key itself never reaches the audit log.
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import type { IdGen } from "../../kernel/ports/id-gen.js"
import { ApiKeyNotFound, InvalidScopeList, TenantNotFound } from "../errors.js"
import { type ApiKeyRecord, ApiKeyRepository } from "../ports/api-keys.js"
import { type AuditLog, UserRepository } from "../ports/people.js"
import { type TenantRecord, TenantRepository } from "../ports/tenants.js"
import { type IssuedApiKey, issueApiKey, revokeApiKey } from "../provisioning.js"
import type { ScopeSet } from "../scopes.js"
import { audit } from "./audit.js"
import { type InvalidExpiry, InvalidKeyName, NotAllowed, ScopeNotAllowed } from "./errors.js"
import { authorize, type ConsoleActor } from "./roles.js"

export type ListedKey = ApiKeyRecord & { readonly createdByEmail: string | null }

/** Every key of the workspace (both services), with the e-mail of whoever created it. */
export const listKeys = (
  actor: ConsoleActor
): Effect.Effect<ReadonlyArray<ListedKey>, NotAllowed | StorageError, ApiKeyRepository | UserRepository> =>
  Effect.gen(function* () {
    yield* authorize(actor, "listKeys")
    const keys = yield* (yield* ApiKeyRepository).list(actor.tenantId)
    const users = yield* UserRepository
    const emails = new Map<string, string | null>()
    for (const id of new Set(keys.flatMap((k) => (k.createdBy === null ? [] : [k.createdBy]))))
      emails.set(id, Option.getOrNull(Option.map(yield* users.get(id), (u) => u.email)))
    return keys.map((key) => ({
      ...key,
      createdByEmail: key.createdBy === null ? null : (emails.get(key.createdBy) ?? null)
    }))
  })

/** The scopes members may give keys of the set's service (the workspace's choice, else the defaults). */
export const memberKeyScopesOf = (tenant: TenantRecord, scopeSet: ScopeSet): ReadonlyArray<string> =>
  (tenant.memberKeyScopes[scopeSet.service] ?? scopeSet.memberDefaults).filter((s) =>
    scopeSet.scopes.includes(s)
  )

const checkScopes = (scopes: ReadonlyArray<string>, scopeSet: ScopeSet, allowEmpty: boolean) => {
  const unknown = scopes.findIndex((s) => !scopeSet.scopes.includes(s))
  return unknown >= 0 || (!allowEmpty && scopes.length === 0)
    ? Effect.fail(
        new InvalidScopeList({
          known: scopeSet.scopes,
          issues: [{ path: ["scopes", Math.max(unknown, 0)], rule: unknown >= 0 ? "enum" : "required" }]
        })
      )
    : Effect.succeed([...new Set(scopes)])
}

const tenantOf = (tenantId: string) =>
  Effect.flatMap(
    Effect.flatMap(Effect.service(TenantRepository), (tenants) => tenants.get(tenantId)),
    Option.match({ onNone: () => Effect.fail(new TenantNotFound()), onSome: Effect.succeed })
  )

export const createKey = (
  actor: ConsoleActor,
  input: {
    readonly scopeSet: ScopeSet
    readonly name: string
    readonly scopes: ReadonlyArray<string>
    readonly expiresAt: Date | null
  }
): Effect.Effect<
  IssuedApiKey,
  | NotAllowed
  | InvalidKeyName
  | InvalidExpiry
  | InvalidScopeList
  | ScopeNotAllowed
  | TenantNotFound
  | StorageError,
  TenantRepository | ApiKeyRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "createKey")
    const name = input.name.trim()
    if (name.length < 1 || name.length > 100) return yield* new InvalidKeyName()
    const scopes = yield* checkScopes(input.scopes, input.scopeSet, false)
    if (actor.role === "member") {
      const allowed = memberKeyScopesOf(yield* tenantOf(actor.tenantId), input.scopeSet)
      if (scopes.some((s) => !allowed.includes(s))) return yield* new ScopeNotAllowed({ allowed })
    }
    // The expiry's range is issueApiKey's rule, the same for the CLI's keys.
    const issued = yield* issueApiKey({
      tenantId: actor.tenantId,
      service: input.scopeSet.service,
      name,
      scopes,
      expiresAt: input.expiresAt,
      createdBy: actor.userId
    })
    yield* audit(actor.tenantId, {
      action: "key.created",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: issued.record.id,
      ip: actor.ip,
      details: {
        service: issued.record.service,
        scopes: scopes.join(","),
        name,
        prefix: issued.record.prefix,
        expiresAt: input.expiresAt?.toISOString() ?? null
      }
    })
    return issued
  })

/** Revokes a key of the workspace; members only the keys they created. */
export const revokeKey = (
  actor: ConsoleActor,
  keyId: string
): Effect.Effect<void, NotAllowed | ApiKeyNotFound | StorageError, ApiKeyRepository | AuditLog | IdGen> =>
  Effect.gen(function* () {
    yield* authorize(actor, "revokeKey")
    const key = (yield* (yield* ApiKeyRepository).list(actor.tenantId)).find((k) => k.id === keyId)
    if (key === undefined || key.revokedAt !== null) return yield* new ApiKeyNotFound()
    if (actor.role === "member" && key.createdBy !== actor.userId)
      return yield* new NotAllowed({ operation: "revokeKey" })
    yield* revokeApiKey(actor.tenantId, keyId)
    yield* audit(actor.tenantId, {
      action: "key.revoked",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: keyId,
      ip: actor.ip,
      details: { service: key.service, name: key.name, prefix: key.prefix }
    })
  })

/** Which scopes members may give keys of one service (empty: members create none of it). */
export const setMemberKeyScopes = (
  actor: ConsoleActor,
  scopeSet: ScopeSet,
  scopes: ReadonlyArray<string>
): Effect.Effect<
  ReadonlyArray<string>,
  NotAllowed | InvalidScopeList | TenantNotFound | StorageError,
  TenantRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "changeMemberKeyScopes")
    const checked = yield* checkScopes(scopes, scopeSet, true)
    if (!(yield* (yield* TenantRepository).setMemberKeyScopes(actor.tenantId, scopeSet.service, checked)))
      return yield* new TenantNotFound()
    yield* audit(actor.tenantId, {
      action: "settings.changed",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: "member_key_scopes",
      ip: actor.ip,
      details: { setting: "member_key_scopes", service: scopeSet.service, scopes: checked.join(",") }
    })
    return checked
  })
