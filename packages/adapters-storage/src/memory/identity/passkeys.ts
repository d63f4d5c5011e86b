// In-memory PasskeyRepository: the twin of sql/identity/passkeys.ts (credential ids unique).
import { PasskeyRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const makePasskeyRepository = Effect.map(
  Effect.service(MemoryStore),
  ({ people: { passkeys, users } }) =>
    PasskeyRepository.of({
      create: (passkey) =>
        Effect.sync(() => {
          for (const other of passkeys.values()) if (other.credentialId === passkey.credentialId) return false
          passkeys.set(passkey.id, passkey)
          return true
        }),
      listByUser: (userId) =>
        Effect.sync(() =>
          [...passkeys.values()]
            .filter((p) => p.userId === userId)
            .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
        ),
      findByCredentialId: (credentialId) =>
        Effect.sync(() =>
          Option.fromNullishOr([...passkeys.values()].find((p) => p.credentialId === credentialId))
        ),
      recordUse: (id, counter, at) =>
        Effect.sync(() => {
          const passkey = passkeys.get(id)
          if (passkey !== undefined) passkeys.set(id, { ...passkey, counter, lastUsedAt: at })
        }),
      deleteKeepingSignIn: (userId, id) =>
        Effect.sync(() => {
          const user = users.get(userId)
          const passkey = passkeys.get(id)
          if (user === undefined || passkey === undefined || passkey.userId !== userId)
            return "not_found" as const
          const own = [...passkeys.values()].filter((p) => p.userId === userId).length
          if (own === 1 && user.passwordHash === null) return "last_method" as const
          passkeys.delete(id)
          return "changed" as const
        }),
      delete: (userId, id) =>
        Effect.sync(() => {
          const passkey = passkeys.get(id)
          if (passkey === undefined || passkey.userId !== userId) return false
          passkeys.delete(id)
          return true
        })
    })
)

export const MemoryPasskeyRepositoryLive = Layer.effect(PasskeyRepository, makePasskeyRepository)
