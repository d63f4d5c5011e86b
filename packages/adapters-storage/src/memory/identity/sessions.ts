// In-memory SessionRepository: the twin of sql/identity/sessions.ts.
import { SessionRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../store.js"

export const makeSessionRepository = Effect.map(Effect.service(MemoryStore), ({ people: { sessions } }) =>
  SessionRepository.of({
    create: (session) => Effect.sync(() => void sessions.set(session.id, session)),
    findByTokenHash: (tokenHash) =>
      Effect.sync(() => Option.fromNullishOr([...sessions.values()].find((s) => s.tokenHash === tokenHash))),
    touch: (id, at) =>
      Effect.sync(() => {
        const session = sessions.get(id)
        if (session !== undefined && session.lastSeenAt.getTime() < at.getTime())
          sessions.set(id, { ...session, lastSeenAt: at })
      }),
    setTenant: (id, tenantId) =>
      Effect.sync(() => {
        const session = sessions.get(id)
        if (session !== undefined) sessions.set(id, { ...session, tenantId })
      }),
    listByUser: (userId) =>
      Effect.sync(() =>
        [...sessions.values()]
          .filter((s) => s.userId === userId)
          .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      ),
    delete: (userId, id) =>
      Effect.sync(() => {
        const session = sessions.get(id)
        if (session === undefined || session.userId !== userId) return false
        sessions.delete(id)
        return true
      }),
    deleteAllOfUser: (userId, keepId) =>
      Effect.sync(() => {
        let deleted = 0
        for (const session of [...sessions.values()])
          if (session.userId === userId && session.id !== keepId) {
            sessions.delete(session.id)
            deleted++
          }
        return deleted
      }),
    deleteExpired: (now, idleBefore) =>
      Effect.sync(() => {
        let deleted = 0
        for (const session of [...sessions.values()])
          if (
            session.expiresAt.getTime() <= now.getTime() ||
            session.lastSeenAt.getTime() < idleBefore.getTime()
          ) {
            sessions.delete(session.id)
            deleted++
          }
        return deleted
      })
  })
)

export const MemorySessionRepositoryLive = Layer.effect(SessionRepository, makeSessionRepository)
