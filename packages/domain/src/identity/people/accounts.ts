// A person's own account: name, password, passkeys. A password is optional once a passkey exists;
// the last way to sign in cannot be removed. Changes are recorded in every workspace of the person.
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { PasskeyCeremony } from "../ports/passkey-ceremony.js"
import { PasswordHashing } from "../ports/password-hashing.js"
import {
  type AuditLog,
  type MembershipRepository,
  type OneTimeTokenRepository,
  PasskeyRepository,
  SessionRepository,
  UserRepository
} from "../ports/people.js"
import { auditInWorkspacesOf } from "./audit.js"
import {
  CurrentPasswordWrong,
  type InvalidDisplayName,
  InvalidPasskeyName,
  LastSignInMethod,
  NotSignedIn,
  PasskeyNotFound,
  PasskeyRejected,
  type WeakPassword
} from "./errors.js"
import { checkDisplayName, checkPassword } from "./links.js"
import { keepChallenge, takeChallenge } from "./passkey-challenges.js"
import type { PasskeyRecord, UserRecord } from "./records.js"
import { now } from "./secrets.js"

const userOf = (userId: string): Effect.Effect<UserRecord, NotSignedIn | StorageError, UserRepository> =>
  Effect.flatMap(
    Effect.flatMap(Effect.service(UserRepository), (users) => users.get(userId)),
    (user) => Option.match(user, { onNone: () => Effect.fail(new NotSignedIn()), onSome: Effect.succeed })
  )

const recordChange = (
  user: UserRecord,
  action: "account.password_changed" | "account.passkey_added" | "account.passkey_removed",
  details: Record<string, string | boolean> = {},
  ip: string | null = null
) => auditInWorkspacesOf(user.id, { action, actorUserId: user.id, actorEmail: user.email, ip, details })

export const setDisplayName = (
  userId: string,
  name: string
): Effect.Effect<void, InvalidDisplayName | NotSignedIn | StorageError, UserRepository> =>
  Effect.gen(function* () {
    const displayName = yield* checkDisplayName(name)
    if (!(yield* (yield* UserRepository).setDisplayName(userId, displayName))) return yield* new NotSignedIn()
  })

/**
 * Sets a new password. When the account has one, the current one must be given (a borrowed session
 * alone cannot take the account); every other session of the person is signed out.
 */
export const changePassword = (
  userId: string,
  passwords: { readonly current: string | null; readonly next: string },
  keepSessionId: string | null,
  /** The client address, for the audit log. */
  ip: string | null = null
): Effect.Effect<
  void,
  CurrentPasswordWrong | WeakPassword | NotSignedIn | StorageError,
  UserRepository | SessionRepository | PasswordHashing | MembershipRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    const user = yield* userOf(userId)
    const hashing = yield* PasswordHashing
    if (user.passwordHash !== null) {
      const check =
        passwords.current === null
          ? { valid: false }
          : yield* hashing.verify(user.passwordHash, passwords.current)
      if (!check.valid) return yield* new CurrentPasswordWrong()
    }
    const next = yield* checkPassword(passwords.next)
    yield* (yield* UserRepository).setPasswordHash(userId, yield* hashing.hash(next))
    yield* (yield* SessionRepository).deleteAllOfUser(userId, keepSessionId)
    yield* recordChange(user, "account.password_changed", {}, ip)
  })

/** Signs in with passkeys only from now on; refused while no passkey exists. */
export const removePassword = (
  userId: string,
  ip: string | null = null
): Effect.Effect<
  void,
  LastSignInMethod | NotSignedIn | StorageError,
  UserRepository | PasskeyRepository | MembershipRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    const user = yield* userOf(userId)
    // One atomic step in the store: a passkey removed at the same moment cannot leave no way in.
    const change = yield* (yield* UserRepository).removePasswordKeepingSignIn(userId)
    if (change === "last_method") return yield* new LastSignInMethod()
    if (change === "not_found") return yield* new NotSignedIn()
    yield* recordChange(user, "account.password_changed", { removed: true }, ip)
  })

/** Starts registering a passkey: the browser's options and the flow id to answer with. */
export const beginPasskeyRegistration = (
  userId: string
): Effect.Effect<
  { readonly flowId: string; readonly options: unknown },
  NotSignedIn | StorageError,
  UserRepository | PasskeyRepository | PasskeyCeremony | OneTimeTokenRepository | IdGen
> =>
  Effect.gen(function* () {
    const user = yield* userOf(userId)
    const existing = yield* (yield* PasskeyRepository).listByUser(userId)
    const ceremony = yield* (yield* PasskeyCeremony).registrationOptions({
      userId: user.id,
      email: user.email,
      displayName: user.displayName,
      exclude: existing
    })
    const flowId = yield* keepChallenge("register", ceremony.challenge, userId)
    return { flowId, options: ceremony.options }
  })

/** Finishes registering: the response must verify against the challenge this person was given. */
export const finishPasskeyRegistration = (
  userId: string,
  input: { readonly flowId: string; readonly response: unknown; readonly name: string },
  ip: string | null = null
): Effect.Effect<
  PasskeyRecord,
  PasskeyRejected | InvalidPasskeyName | NotSignedIn | StorageError,
  | UserRepository
  | PasskeyRepository
  | PasskeyCeremony
  | OneTimeTokenRepository
  | MembershipRepository
  | AuditLog
  | IdGen
> =>
  Effect.gen(function* () {
    const name = input.name.trim()
    if (name.length < 1 || name.length > 100) return yield* new InvalidPasskeyName()
    const user = yield* userOf(userId)
    const challenge = yield* takeChallenge(input.flowId, "register", userId)
    if (Option.isNone(challenge)) return yield* new PasskeyRejected()
    const verified = yield* (yield* PasskeyCeremony).verifyRegistration(input.response, challenge.value)
    if (Option.isNone(verified)) return yield* new PasskeyRejected()
    const passkey: PasskeyRecord = {
      id: yield* (yield* IdGen).uuidV7,
      userId,
      credentialId: verified.value.credentialId,
      publicKey: verified.value.publicKey,
      counter: verified.value.counter,
      transports: verified.value.transports,
      name,
      createdAt: yield* now,
      lastUsedAt: null
    }
    if (!(yield* (yield* PasskeyRepository).create(passkey))) return yield* new PasskeyRejected()
    yield* recordChange(user, "account.passkey_added", { name }, ip)
    return passkey
  })

export const listPasskeys = (
  userId: string
): Effect.Effect<ReadonlyArray<PasskeyRecord>, StorageError, PasskeyRepository> =>
  Effect.flatMap(Effect.service(PasskeyRepository), (passkeys) => passkeys.listByUser(userId))

/** Removes one of the person's passkeys, unless it is their last way to sign in. */
export const removePasskey = (
  userId: string,
  id: string,
  ip: string | null = null
): Effect.Effect<
  void,
  PasskeyNotFound | LastSignInMethod | NotSignedIn | StorageError,
  UserRepository | PasskeyRepository | MembershipRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    const user = yield* userOf(userId)
    const passkeys = yield* PasskeyRepository
    const passkey = (yield* passkeys.listByUser(userId)).find((p) => p.id === id)
    if (passkey === undefined) return yield* new PasskeyNotFound()
    // The check and the delete are one atomic step in the store (it locks the account).
    const change = yield* passkeys.deleteKeepingSignIn(userId, id)
    if (change === "last_method") return yield* new LastSignInMethod()
    if (change === "not_found") return yield* new PasskeyNotFound()
    yield* recordChange(user, "account.passkey_removed", { name: passkey.name }, ip)
  })
