// In-memory UserRepository: the twin of sql/identity/users.ts (e-mails unique, as the index there).
import { UserRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const makeUserRepository = Effect.map(
  Effect.service(MemoryStore),
  ({ people: { users, passkeys } }) => {
    const update = (id: string, change: (user: NonNullable<ReturnType<typeof users.get>>) => void) =>
      Effect.sync(() => {
        const user = users.get(id)
        if (user === undefined) return false
        change(user)
        return true
      })
    return UserRepository.of({
      create: (user) =>
        Effect.sync(() => {
          for (const other of users.values()) if (other.email === user.email) return false
          users.set(user.id, user)
          return true
        }),
      get: (id) => Effect.sync(() => Option.fromNullishOr(users.get(id))),
      findByEmail: (email) =>
        Effect.sync(() => Option.fromNullishOr([...users.values()].find((user) => user.email === email))),
      removePasswordKeepingSignIn: (id) =>
        Effect.sync(() => {
          const user = users.get(id)
          if (user === undefined) return "not_found" as const
          if (![...passkeys.values()].some((p) => p.userId === id)) return "last_method" as const
          users.set(id, { ...user, passwordHash: null })
          return "changed" as const
        }),
      setDisplayName: (id, displayName) => update(id, (user) => users.set(id, { ...user, displayName })),
      setPasswordHash: (id, passwordHash) => update(id, (user) => users.set(id, { ...user, passwordHash })),
      count: Effect.sync(() => users.size)
    })
  }
)

export const MemoryUserRepositoryLive = Layer.effect(UserRepository, makeUserRepository)
