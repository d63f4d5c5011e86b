// In-memory UploadRequests: the twin of sql/sharing/upload-requests.ts.
import { UploadRequests } from "@folio/domain"
import { Effect, Layer, Option } from "effect"
import { recordSharingEvent } from "./sharing-events.js"
import { MemoryStore } from "../store.js"

const newestFirst = <A extends { readonly id: string }>(a: A, b: A) =>
  a.id < b.id ? 1 : a.id > b.id ? -1 : 0

export const MemoryUploadRequestsLive = Layer.effect(
  UploadRequests,
  Effect.map(Effect.service(MemoryStore), (tables) => {
    const { uploadRequests, uploadSubmissions, sharingEvents } = tables
    return UploadRequests.of({
      insert: (r) => Effect.sync(() => void uploadRequests.set(r.id, r)),
      list: (tenantId) =>
        Effect.sync(() =>
          [...uploadRequests.values()].filter((r) => r.tenantId === tenantId).sort(newestFirst)
        ),
      get: (tenantId, id) =>
        Effect.sync(() =>
          Option.filter(Option.fromNullishOr(uploadRequests.get(id)), (r) => r.tenantId === tenantId)
        ),
      getByTokenHash: (tokenHash) =>
        Effect.sync(() =>
          Option.fromNullishOr([...uploadRequests.values()].find((r) => r.tokenHash === tokenHash))
        ),
      update: (tenantId, next) =>
        Effect.sync(() => {
          const current = uploadRequests.get(next.id)
          if (
            current === undefined ||
            current.tenantId !== tenantId ||
            current.rowVersion !== next.rowVersion - 1
          )
            return "stale" as const
          uploadRequests.set(next.id, next)
          return "updated" as const
        }),
      revoke: (tenantId, id, at) =>
        Effect.sync(() => {
          const current = uploadRequests.get(id)
          if (current === undefined || current.tenantId !== tenantId) return Option.none()
          if (current.revokedAt !== null) return Option.some(current)
          const revoked = { ...current, revokedAt: at, rowVersion: current.rowVersion + 1, updatedAt: at }
          uploadRequests.set(id, revoked)
          return Option.some(revoked)
        }),
      insertSubmission: (s, event) =>
        Effect.sync(() => {
          uploadSubmissions.set(s.id, s)
          recordSharingEvent(tables, event)
        }),
      listSubmissions: (tenantId, requestId, page) =>
        Effect.sync(() => {
          const all = [...uploadSubmissions.values()]
            .filter((s) => s.tenantId === tenantId && s.requestId === requestId)
            .sort(newestFirst)
          return { items: all.slice(page.offset, page.offset + page.limit), total: all.length }
        }),
      getSubmission: (tenantId, requestId, id) =>
        Effect.sync(() =>
          Option.filter(
            Option.fromNullishOr(uploadSubmissions.get(id)),
            (s) => s.tenantId === tenantId && s.requestId === requestId
          )
        ),
      review: (tenantId, requestId, id, review, at, event) =>
        Effect.sync(() => {
          const s = uploadSubmissions.get(id)
          if (s === undefined || s.tenantId !== tenantId || s.requestId !== requestId) return Option.none()
          if (s.review === review) return Option.some(s)
          const next = { ...s, review, reviewedAt: at }
          uploadSubmissions.set(id, next)
          recordSharingEvent(tables, event)
          return Option.some(next)
        }),
      events: (tenantId) => Effect.sync(() => sharingEvents.filter((e) => e.tenantId === tenantId))
    })
  })
)
