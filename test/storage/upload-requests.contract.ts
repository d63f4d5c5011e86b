// Contract of UploadRequests, run by register-contracts.ts against every storage target: requests
// per tenant, newest first, found by their token's hash; updates only at the row version read; a
// revoke that lands once whatever the version; submissions in pages with their total; reviews that
// record their event only when the value changed; the tenant's events oldest first.
import {
  type SharingEventRecord,
  type UploadRequestRecord,
  UploadRequests,
  type UploadRequestsService,
  type UploadSubmissionRecord
} from "@folio/domain"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { uuid, uuidV7 } from "./fixtures.js"

export const registerUploadRequestContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const store = <A, E>(f: (s: UploadRequestsService) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(UploadRequests, f))
  const t0 = Date.parse("2026-06-01T12:00:00.000Z")
  let clock = 0
  /** Each call a millisecond later, so v7 ids made in order sort in that order. */
  const tick = () => t0 + ++clock
  const request = (tenantId: string, overrides: Partial<UploadRequestRecord> = {}): UploadRequestRecord => {
    const ms = tick()
    return {
      id: uuidV7(ms),
      tenantId,
      title: "Your photos",
      description: null,
      tokenHash: `${uuid()}${uuid()}`.replaceAll("-", ""),
      passwordHash: null,
      expiresAt: null,
      status: "open",
      revokedAt: null,
      rowVersion: 1,
      createdAt: new Date(ms),
      updatedAt: new Date(ms),
      ...overrides
    }
  }
  const submission = (r: UploadRequestRecord): UploadSubmissionRecord => {
    const ms = tick()
    return {
      id: uuidV7(ms),
      tenantId: r.tenantId,
      requestId: r.id,
      submitterName: "Ada",
      message: null,
      review: "unreviewed",
      fileResourceIds: [uuid(), uuid()],
      createdAt: new Date(ms),
      reviewedAt: null
    }
  }
  const event = (tenantId: string, type: string, payload: Record<string, unknown>): SharingEventRecord => {
    const ms = tick()
    return { id: uuidV7(ms), tenantId, type, payload, createdAt: new Date(ms) }
  }

  describe(`UploadRequests [${target}]`, () => {
    it("lists a tenant's requests newest first, and reads one by id only for its tenant, or by token hash", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const made = [request(ws.id), request(ws.id, { description: "From the trip" }), request(ws.id)]
      for (const r of made) await store((s) => s.insert(r))
      await store((s) => s.insert(request(other.id)))

      expect(await store((s) => s.list(ws.id))).toEqual([...made].reverse())
      expect(Option.getOrThrow(await store((s) => s.get(ws.id, made[1]?.id ?? "")))).toEqual(made[1])
      expect(Option.isNone(await store((s) => s.get(other.id, made[1]?.id ?? "")))).toBe(true)
      expect(Option.isNone(await store((s) => s.get(ws.id, uuid())))).toBe(true)
      expect(Option.isNone(await store((s) => s.get(ws.id, "not-a-uuid")))).toBe(true)
      expect(Option.getOrThrow(await store((s) => s.getByTokenHash(made[2]?.tokenHash ?? "")))).toEqual(
        made[2]
      )
      expect(Option.isNone(await store((s) => s.getByTokenHash("0".repeat(64))))).toBe(true)
    })

    it("updates only at the row version read and only for its tenant", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const r = request(ws.id)
      await store((s) => s.insert(r))
      const paused = { ...r, status: "paused" as const, rowVersion: 2, updatedAt: new Date(tick()) }
      expect(await store((s) => s.update(other.id, paused))).toBe("stale")
      expect(await store((s) => s.update(ws.id, paused))).toBe("updated")
      // A writer that read version 1 too has lost.
      expect(await store((s) => s.update(ws.id, { ...r, title: "Lost", rowVersion: 2 }))).toBe("stale")
      expect(Option.getOrThrow(await store((s) => s.get(ws.id, r.id)))).toEqual(paused)
    })

    it("lets exactly one of many concurrent updates at one row version land", async () => {
      const ws = await newWorkspace()
      const r = request(ws.id)
      await store((s) => s.insert(r))
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store((s) => s.update(ws.id, { ...r, title: `T${i}`, rowVersion: 2 }))
        )
      )
      expect(results.filter((x) => x === "updated")).toHaveLength(1)
      expect(results.filter((x) => x === "stale")).toHaveLength(9)
    })

    it("revokes once whatever the row version, moving it so an earlier read cannot undo it", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const r = request(ws.id)
      await store((s) => s.insert(r))
      const when = new Date(tick())
      expect(Option.isNone(await store((s) => s.revoke(other.id, r.id, when)))).toBe(true)
      expect(Option.isNone(await store((s) => s.revoke(ws.id, uuid(), when)))).toBe(true)
      const revoked = Option.getOrThrow(await store((s) => s.revoke(ws.id, r.id, when)))
      expect(revoked).toEqual({ ...r, revokedAt: when, rowVersion: 2, updatedAt: when })
      // A second revoke changes nothing and answers the request as it is.
      const again = Option.getOrThrow(await store((s) => s.revoke(ws.id, r.id, new Date(tick()))))
      expect(again).toEqual(revoked)
      // An update from a read before the revoke is stale.
      expect(await store((s) => s.update(ws.id, { ...r, status: "open", rowVersion: 2 }))).toBe("stale")
      expect(Option.getOrThrow(await store((s) => s.get(ws.id, r.id))).revokedAt).toEqual(when)
    })

    it("stores submissions with their event, lists them newest first in pages, and reads one only in its request", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const r = request(ws.id)
      const sibling = request(ws.id)
      for (const x of [r, sibling]) await store((s) => s.insert(x))
      const sent = [submission(r), submission(r), submission(r)]
      for (const x of sent)
        await store((s) =>
          s.insertSubmission(x, event(ws.id, "upload_request.submitted", { submission_id: x.id }))
        )

      const page = await store((s) => s.listSubmissions(ws.id, r.id, { limit: 2, offset: 0 }))
      expect(page).toEqual({ items: [sent[2], sent[1]], total: 3 })
      expect(await store((s) => s.listSubmissions(ws.id, r.id, { limit: 2, offset: 2 }))).toEqual({
        items: [sent[0]],
        total: 3
      })
      expect(await store((s) => s.listSubmissions(other.id, r.id, { limit: 10, offset: 0 }))).toEqual({
        items: [],
        total: 0
      })
      const one = sent[0]?.id ?? ""
      expect(Option.getOrThrow(await store((s) => s.getSubmission(ws.id, r.id, one)))).toEqual(sent[0])
      expect(Option.isNone(await store((s) => s.getSubmission(ws.id, sibling.id, one)))).toBe(true)
      expect(Option.isNone(await store((s) => s.getSubmission(other.id, r.id, one)))).toBe(true)
      expect((await store((s) => s.events(ws.id))).map((e) => e.payload)).toEqual(
        sent.map((x) => ({ submission_id: x.id }))
      )
      expect(await store((s) => s.events(other.id))).toEqual([])
    })

    it("records a review's event only when the review changed, and answers None for a submission elsewhere", async () => {
      const ws = await newWorkspace()
      const r = request(ws.id)
      await store((s) => s.insert(r))
      const x = submission(r)
      const submitted = event(ws.id, "upload_request.submitted", { submission_id: x.id })
      await store((s) => s.insertSubmission(x, submitted))
      const reviewedAt = new Date(tick())
      const accepted = event(ws.id, "upload_request.reviewed", { review: "accepted" })
      const reviewed = await store((s) => s.review(ws.id, r.id, x.id, "accepted", reviewedAt, accepted))
      expect(Option.getOrThrow(reviewed)).toEqual({ ...x, review: "accepted", reviewedAt })
      // The same review again: nothing changes, no event.
      const same = await store((s) =>
        s.review(ws.id, r.id, x.id, "accepted", new Date(tick()), event(ws.id, "upload_request.reviewed", {}))
      )
      expect(Option.getOrThrow(same)).toEqual({ ...x, review: "accepted", reviewedAt })
      const elsewhere = await store((s) =>
        s.review(
          ws.id,
          uuid(),
          x.id,
          "rejected",
          new Date(tick()),
          event(ws.id, "upload_request.reviewed", {})
        )
      )
      expect(Option.isNone(elsewhere)).toBe(true)
      expect(await store((s) => s.events(ws.id))).toEqual([submitted, accepted])
    })
  })
}
