// oidc-provider's storage adapter over the OAuthStore port: one adapter per model (Grant,
// AccessToken, RefreshToken, AuthorizationCode, Client, Interaction, Session, ...), each artifact
// one record with the library's payload and the few fields the store indexes (grant, uid, the
// workspace a grant acts in, expiry, consumption). Bearer artifacts are kept under their SHA-256.
/// <reference path="./oidc-provider.d.ts" />
import { createHash } from "node:crypto"
import type { OAuthRecord, OAuthStoreService } from "@folio/domain"
import { Effect, Option } from "effect"
import { errors } from "oidc-provider"
import { stringOf, tenantOfAccount } from "./names.js"

/** The payload as oidc-provider writes and reads it (opaque but for the few fields used here). */
type Payload = Record<string, unknown>

/** The models whose payload's accountId (`tenantId:userId`) names the workspace they act in. */
const TENANT_MODELS = new Set(["Grant", "AccessToken", "RefreshToken", "AuthorizationCode"])

/** The models a consumed-twice artifact of which revokes its grant (a replayed code or refresh token). */
const ROTATED_MODELS = new Set(["RefreshToken", "AuthorizationCode"])

/**
 * The models whose id is itself a credential (a token, a code): the store
 * keeps them under the id's SHA-256 and without the id in the payload, as API keys are kept, so a
 * copy of the database holds no token anyone could present. The library always looks them up by
 * the value it was handed, which is hashed the same way. (The server's own browser sessions stay
 * by value: the library also finds them by uid, and one only spares a sign-in the consent page asks
 * for again.)
 */
const BEARER_MODELS = new Set([
  "AccessToken",
  "RefreshToken",
  "AuthorizationCode",
  "RegistrationAccessToken",
  "ClientCredentials",
  "DeviceCode",
  "BackchannelAuthenticationRequest"
])

/** The id the store keeps an artifact under. */
export const storedIdOf = (model: string, id: string): string =>
  BEARER_MODELS.has(model) ? `sha256:${createHash("sha256").update(id).digest("base64url")}` : id

/** The payload as stored: a bearer artifact's own value (its `jti`) left out. */
const storedPayloadOf = (model: string, id: string, payload: Payload): Payload => {
  if (!BEARER_MODELS.has(model) || payload.jti !== id) return payload
  const { jti: _value, ...rest } = payload
  return rest
}

const run = <A>(effect: Effect.Effect<A, unknown>): Promise<A> => Effect.runPromise(effect)

export const recordOf = (
  model: string,
  id: string,
  payload: Payload,
  expiresInSeconds: number | undefined,
  now: Date
): OAuthRecord => ({
  model,
  id: storedIdOf(model, id),
  payload: storedPayloadOf(model, id, payload),
  grantId: stringOf(payload.grantId),
  uid: stringOf(payload.uid),
  userCode: stringOf(payload.userCode),
  tenantId: TENANT_MODELS.has(model) ? tenantOfAccount(payload.accountId) : null,
  expiresAt:
    expiresInSeconds === undefined || !Number.isFinite(expiresInSeconds)
      ? null
      : new Date(now.getTime() + expiresInSeconds * 1000),
  consumedAt: null
})

/**
 * The payload the library reads back: a bearer artifact's value (the id it was looked up by) in
 * `jti` again, and `consumed` (epoch seconds) once the store marked it consumed.
 */
const payloadOf = (found: Option.Option<OAuthRecord>, id?: string): Payload | undefined => {
  if (Option.isNone(found)) return undefined
  const record = found.value
  const payload =
    id !== undefined && BEARER_MODELS.has(record.model) && record.payload.jti === undefined
      ? { ...record.payload, jti: id }
      : { ...record.payload }
  return record.consumedAt === null
    ? payload
    : { ...payload, consumed: Math.floor(record.consumedAt.getTime() / 1000) }
}

/** The adapter class oidc-provider instantiates once per model name. */
export const storeAdapter = (store: OAuthStoreService) =>
  class StoreAdapter {
    readonly name: string
    constructor(name: string) {
      this.name = name
    }

    upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const now = new Date()
      return run(store.upsert(recordOf(this.name, id, payload, expiresIn, now), now))
    }

    find(id: string): Promise<Payload | undefined> {
      return run(
        Effect.map(store.find(this.name, storedIdOf(this.name, id), new Date()), (found) =>
          payloadOf(found, id)
        )
      )
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      return run(Effect.map(store.findByUid(this.name, uid, new Date()), payloadOf))
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      return run(Effect.map(store.findByUserCode(this.name, userCode, new Date()), payloadOf))
    }

    /**
     * Marks the artifact consumed. The library checks `consumed` before consuming, but two requests
     * can both pass that check: the store's atomic consume lets one win, and the loser's use is a
     * replay, which revokes the whole grant (as the library does for a replay it sees itself).
     */
    async consume(id: string): Promise<void> {
      const now = new Date()
      const stored = storedIdOf(this.name, id)
      const found = await run(store.find(this.name, stored, now))
      const consumed = await run(store.consume(this.name, stored, now))
      if (consumed || !ROTATED_MODELS.has(this.name)) return
      const grantId = Option.isSome(found) ? found.value.grantId : null
      if (grantId !== null) await run(store.revokeByGrantId(grantId))
      throw new errors.InvalidGrant("grant request is invalid")
    }

    destroy(id: string): Promise<void> {
      return run(store.destroy(this.name, storedIdOf(this.name, id)))
    }

    revokeByGrantId(grantId: string): Promise<void> {
      return run(store.revokeByGrantId(grantId))
    }
  }
