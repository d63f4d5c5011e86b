// Settings and definition fields the server enforces, each shown acting over real HTTP on PGlite and
// PostgreSQL: a closing time closes the page and the start route; text lengths, date, time and
// date-time bounds refuse answers at completion; a logic rule matching "any" fires on one condition.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { blk } from "../support/builders.js"
import { bearer } from "../support/keys.js"
import { startAppOn, storageTargets } from "../support/storage.js"

type Json = Record<string, unknown> & {
  data: Record<string, unknown>
  error: Record<string, unknown> & { details: Record<string, unknown> }
}

for (const target of storageTargets(["pglite", "postgres"])) {
  describe.skipIf(target.skip)(`fields the server acts on [${target.name}]`, () => {
    let opened: Awaited<ReturnType<typeof startAppOn>>
    beforeAll(async () => {
      opened = await startAppOn(target.name)
    })
    afterAll(async () => opened.close())

    const request = async (method: string, path: string, body?: unknown, auth?: string) => {
      const headers: Record<string, string> = { ...(auth === undefined ? {} : bearer(auth)) }
      if (body !== undefined) headers["content-type"] = "application/json"
      const response = await fetch(`${opened.app.origin}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return {
        status: response.status,
        text,
        body: (text === "" || text.startsWith("<") ? {} : JSON.parse(text)) as Json
      }
    }

    let slugs = 0
    const publish = async (definition: unknown, settings?: unknown) => {
      const created = await request(
        "POST",
        "/forms/api/v1/forms",
        { title: "Act", definition, ...(settings === undefined ? {} : { settings }) },
        opened.key
      )
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      const id = String(created.body.data.id)
      const slug = `act-${target.name}-${++slugs}`
      expect((await request("PATCH", `/forms/api/v1/forms/${id}/slug`, { slug }, opened.key)).status).toBe(
        200
      )
      const published = await request(
        "POST",
        `/forms/api/v1/forms/${id}/publish`,
        { expectedDraftRevision: created.body.data.draftRevision },
        opened.key
      )
      expect(published.status).toBe(200)
      return slug
    }

    /** Starts a response and completes it with `answers`; answers the completion's reply. */
    const completeWith = async (slug: string, answers: Record<string, unknown>) => {
      const started = await request("POST", `/f/${slug}/responses`, {})
      expect(started.status).toBe(201)
      const { responseId, token } = started.body.data as { responseId: string; token: string }
      return request("POST", `/f/${slug}/responses/${responseId}/complete`, { token, answers })
    }

    const issuesOf = (reply: { body: Json }) => reply.body.error?.details?.issues

    it("closes the page and the start route once submission.closesAt has passed, and stays open before it", async () => {
      const definition = { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Q" }] }
      const past = await publish(definition, {
        submission: { closesAt: "2020-01-01T00:00:00Z", closedMessage: "Closed since 2020." }
      })
      const page = await request("GET", `/f/${past}`)
      expect(page.status).toBe(410)
      expect(page.text).toContain("This form is closed")
      expect(page.text).toContain("Closed since 2020.")
      expect(page.text).not.toContain('<form id="form"')
      const start = await request("POST", `/f/${past}/responses`, {})
      expect(start.status).toBe(410)
      expect(start.body.error).toMatchObject({
        code: "closed",
        message: "Closed since 2020.",
        details: { reason: "closed_at" }
      })
      expect((await request("GET", `/f/${past}/form`)).body.data.closed).toEqual({
        reason: "closed_at",
        message: "Closed since 2020."
      })

      const future = await publish(definition, { submission: { closesAt: "2999-01-01T00:00:00Z" } })
      const open = await request("GET", `/f/${future}`)
      expect(open.status).toBe(200)
      expect(open.text).toContain('<form id="form"')
      expect((await completeWith(future, { [blk(1)]: "yes" })).status).toBe(200)
    })

    it("refuses text shorter than minLength and longer than maxLength (short_text, long_text)", async () => {
      const slug = await publish({
        schemaVersion: 1,
        blocks: [
          { id: blk(1), type: "short_text", label: "Code", options: { minLength: 3 } },
          { id: blk(2), type: "long_text", label: "Story", options: { minLength: 5, maxLength: 20 } }
        ]
      })
      const short = await completeWith(slug, { [blk(1)]: "ab", [blk(2)]: "abcd" })
      expect(short.status).toBe(400)
      expect(issuesOf(short)).toEqual(
        expect.arrayContaining([
          { path: ["answers", blk(1)], rule: "minLength" },
          { path: ["answers", blk(2)], rule: "minLength" }
        ])
      )
      const long = await completeWith(slug, { [blk(1)]: "abc", [blk(2)]: "x".repeat(21) })
      expect(long.status).toBe(400)
      expect(issuesOf(long)).toEqual([{ path: ["answers", blk(2)], rule: "maxLength" }])
      const fits = await completeWith(slug, { [blk(1)]: "abc", [blk(2)]: "x".repeat(20) })
      expect(fits.status).toBe(200)
    })

    it("refuses datetime, time and date_range answers outside their min and max", async () => {
      const slug = await publish({
        schemaVersion: 1,
        blocks: [
          {
            id: blk(1),
            type: "datetime",
            label: "When",
            options: { min: "2026-01-01T09:00", max: "2026-01-31T17:00" }
          },
          { id: blk(2), type: "time", label: "Time", options: { min: "09:00", max: "17:30" } },
          {
            id: blk(3),
            type: "date_range",
            label: "Trip",
            options: { min: "2026-06-01", max: "2026-06-30" }
          }
        ]
      })
      const early = await completeWith(slug, {
        [blk(1)]: "2025-12-31T23:59",
        [blk(2)]: "08:59",
        [blk(3)]: ["2026-05-31", "2026-06-10"]
      })
      expect(early.status).toBe(400)
      expect(issuesOf(early)).toEqual(
        expect.arrayContaining([1, 2, 3].map((n) => ({ path: ["answers", blk(n)], rule: "outOfRange" })))
      )
      const late = await completeWith(slug, {
        [blk(1)]: "2026-01-31T17:01",
        [blk(2)]: "17:31",
        [blk(3)]: ["2026-06-10", "2026-07-01"]
      })
      expect(late.status).toBe(400)
      expect(issuesOf(late)).toHaveLength(3)
      const within = await completeWith(slug, {
        [blk(1)]: "2026-01-31T17:00",
        [blk(2)]: "09:00",
        [blk(3)]: ["2026-06-01", "2026-06-30"]
      })
      expect(within.status).toBe(200)
    })

    it('fires a logic rule with match "any" when only one of its two conditions holds', async () => {
      const definitionWith = (match: "any" | "all") => ({
        schemaVersion: 1,
        blocks: [
          {
            id: blk(1),
            type: "multiple_choice",
            label: "Pick",
            options: {
              choices: [
                { id: "a", label: "A" },
                { id: "b", label: "B" }
              ]
            }
          },
          { id: blk(2), type: "short_text", label: "Word" },
          { id: blk(3), type: "short_text", label: "Asked unless a rule hides it", required: true }
        ],
        logic: [
          {
            id: "lgc_either",
            from: blk(2),
            match,
            conditions: [
              { blk: blk(1), op: "eq", value: "a" },
              { blk: blk(2), op: "eq", value: "skip" }
            ],
            actions: [{ type: "hide", target: blk(3) }]
          }
        ]
      })
      const any = await publish(definitionWith("any"))
      // Only the second condition holds: the rule fires and the required block is not required.
      const hidden = await completeWith(any, { [blk(1)]: "b", [blk(2)]: "skip" })
      expect(hidden.status).toBe(200)
      // Neither holds: the block is asked, and required.
      const neither = await completeWith(any, { [blk(1)]: "b", [blk(2)]: "go" })
      expect(neither.status).toBe(400)
      expect(issuesOf(neither)).toEqual([{ path: ["answers", blk(3)], rule: "required" }])
      // The same answers under match "all" leave the block asked.
      const all = await publish(definitionWith("all"))
      const asked = await completeWith(all, { [blk(1)]: "b", [blk(2)]: "skip" })
      expect(asked.status).toBe(400)
      expect(issuesOf(asked)).toEqual([{ path: ["answers", blk(3)], rule: "required" }])
    })
  })
}
