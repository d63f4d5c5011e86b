// In-memory BioSubmissions: the twin of sql/sharing/bio-submissions.ts.
import { BioSubmissions } from "@folio/domain"
import { Effect, Layer } from "effect"
import { MemoryStore } from "../store.js"

export const MemoryBioSubmissionsLive = Layer.effect(
  BioSubmissions,
  Effect.map(Effect.service(MemoryStore), ({ bioSubmissions }) =>
    BioSubmissions.of({
      insert: (s) => Effect.sync(() => void bioSubmissions.set(s.id, s)),
      list: (tenantId, resourceId, page) =>
        Effect.sync(() => {
          const all = [...bioSubmissions.values()]
            .filter((s) => s.tenantId === tenantId && s.resourceId === resourceId)
            .sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
          return { items: all.slice(page.offset, page.offset + page.limit), total: all.length }
        }),
      delete: (tenantId, resourceId, id) =>
        Effect.sync(() => {
          const s = bioSubmissions.get(id)
          if (s === undefined || s.tenantId !== tenantId || s.resourceId !== resourceId) return false
          bioSubmissions.delete(id)
          return true
        })
    })
  )
)
