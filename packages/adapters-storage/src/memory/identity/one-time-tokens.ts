// In-memory OneTimeTokenRepository: the twin of sql/identity/one-time-tokens.ts. `consume` checks
// and marks in one synchronous step: of two uses of one token exactly one gets it.
import { type OneTimeTokenKind, type OneTimeTokenRecord, OneTimeTokenRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

const usable = (token: OneTimeTokenRecord, now: Date) =>
  token.usedAt === null && token.expiresAt.getTime() > now.getTime()

const newestFirst = (a: OneTimeTokenRecord, b: OneTimeTokenRecord) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)

export const makeOneTimeTokenRepository = Effect.map(
  Effect.service(MemoryStore),
  ({ people: { oneTimeTokens: tokens } }) => {
    const find = (kind: OneTimeTokenKind, tokenHash: string, now: Date) =>
      [...tokens.values()].find((t) => t.kind === kind && t.tokenHash === tokenHash && usable(t, now))
    return OneTimeTokenRepository.of({
      create: (token) => Effect.sync(() => void tokens.set(token.id, token)),
      peek: (kind, tokenHash, now) => Effect.sync(() => Option.fromNullishOr(find(kind, tokenHash, now))),
      consume: (kind, tokenHash, now) =>
        Effect.sync(() => {
          const token = find(kind, tokenHash, now)
          if (token === undefined) return Option.none()
          const used = { ...token, usedAt: now }
          tokens.set(token.id, used)
          return Option.some(used)
        }),
      listInvitations: (tenantId, now) =>
        Effect.sync(() =>
          [...tokens.values()]
            .filter((t) => t.kind === "invitation" && t.tenantId === tenantId && usable(t, now))
            .sort(newestFirst)
        ),
      revokeInvitation: (tenantId, id, at) =>
        Effect.sync(() => {
          const token = tokens.get(id)
          if (
            token === undefined ||
            token.kind !== "invitation" ||
            token.tenantId !== tenantId ||
            token.usedAt !== null
          )
            return false
          tokens.set(id, { ...token, usedAt: at })
          return true
        }),
      revokeResets: (userId, at) =>
        Effect.sync(() => {
          for (const token of [...tokens.values()])
            if (token.kind === "password_reset" && token.userId === userId && token.usedAt === null)
              tokens.set(token.id, { ...token, usedAt: at })
        }),
      deleteSpent: (before) =>
        Effect.sync(() => {
          let deleted = 0
          for (const token of [...tokens.values()])
            if (
              token.expiresAt.getTime() < before.getTime() ||
              (token.usedAt !== null && token.usedAt.getTime() < before.getTime())
            ) {
              tokens.delete(token.id)
              deleted++
            }
          return deleted
        })
    })
  }
)

export const MemoryOneTimeTokenRepositoryLive = Layer.effect(
  OneTimeTokenRepository,
  makeOneTimeTokenRepository
)
