// Contract of BioSubmissions, run by register-contracts.ts against every storage target: what
// visitors sent through a bio page's forms, listed newest first in pages with the total, read and
// deleted only by the tenant and resource they belong to.
import {
  type BioSubmissionRecord,
  BioSubmissions,
  type BioSubmissionsService,
  ResourceRepository
} from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { resource, uuidV7 } from "./fixtures.js"

export const registerBioSubmissionContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const store = <A, E>(f: (s: BioSubmissionsService) => Effect.Effect<A, E>) =>
    run(Effect.flatMap(BioSubmissions, f))
  const t0 = Date.parse("2026-06-01T12:00:00.000Z")
  const newBio = async (tenantId: string) => {
    const bio = resource(tenantId, "bio")
    await run(Effect.flatMap(ResourceRepository, (r) => r.insert(bio)))
    return bio
  }
  const submission = (tenantId: string, resourceId: string, ms: number): BioSubmissionRecord => ({
    id: uuidV7(t0 + ms),
    tenantId,
    resourceId,
    blockId: "blk_contact",
    formTitle: "Say hello",
    values: { name: `Visitor ${ms}`, email: "v@example.com", message: 'Hi, "there" 👋' },
    createdAt: new Date(t0 + ms)
  })

  describe(`BioSubmissions [${target}]`, () => {
    it("lists a page's submissions newest first, in pages with the total, values as sent", async () => {
      const ws = await newWorkspace()
      const bio = await newBio(ws.id)
      const sibling = await newBio(ws.id)
      const sent = [3, 0, 4, 1, 2].map((ms) => submission(ws.id, bio.id, ms * 1000))
      for (const s of sent) await store((x) => x.insert(s))
      await store((x) => x.insert(submission(ws.id, sibling.id, 9000)))
      const newestFirst = [...sent].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())

      const first = await store((x) => x.list(ws.id, bio.id, { limit: 2, offset: 0 }))
      expect(first.total).toBe(5)
      expect(first.items).toEqual(newestFirst.slice(0, 2))
      const rest = await store((x) => x.list(ws.id, bio.id, { limit: 10, offset: 2 }))
      expect(rest).toEqual({ items: newestFirst.slice(2), total: 5 })
      expect(await store((x) => x.list(ws.id, bio.id, { limit: 10, offset: 5 }))).toEqual({
        items: [],
        total: 5
      })
    })

    it("shows and deletes a submission only for its own tenant and page, once", async () => {
      const ws = await newWorkspace()
      const other = await newWorkspace()
      const bio = await newBio(ws.id)
      const sibling = await newBio(ws.id)
      const s = submission(ws.id, bio.id, 0)
      await store((x) => x.insert(s))

      expect(await store((x) => x.list(other.id, bio.id, { limit: 10, offset: 0 }))).toEqual({
        items: [],
        total: 0
      })
      expect(await store((x) => x.delete(other.id, bio.id, s.id))).toBe(false)
      expect(await store((x) => x.delete(ws.id, sibling.id, s.id))).toBe(false)
      expect(await store((x) => x.delete(ws.id, bio.id, s.id))).toBe(true)
      expect(await store((x) => x.delete(ws.id, bio.id, s.id))).toBe(false)
      expect(await store((x) => x.list(ws.id, bio.id, { limit: 10, offset: 0 }))).toEqual({
        items: [],
        total: 0
      })
    })
  })
}
