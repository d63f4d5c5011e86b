// The forms authoring flow end to end over real HTTP, on every storage target: create, patch with
// CAS, settings CAS, publish and republish, unpublish, version paging, duplicate, slug, assets,
// delete; the authorization matrix; and concurrent writers.
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startAppOn, storageTargets } from "../support/storage.js"
import type { RunningApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"

type Json = Record<string, unknown>

const targets = storageTargets()

const definition = (labels: ReadonlyArray<string>) => ({
  schemaVersion: 1,
  blocks: labels.map((label, i) => ({ id: blk(i), type: "short_text", label }))
})
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])

for (const target of targets) {
  describe.skipIf(target.skip)(`forms REST API [${target.name}]`, () => {
    let app: RunningApp
    let key: string
    let close: () => Promise<void> = async () => {}

    const call = async (method: string, path: string, body?: unknown, auth = key) => {
      const init: RequestInit = {
        method,
        headers: { ...bearer(auth), ...(body === undefined ? {} : { "content-type": "application/json" }) }
      }
      if (body !== undefined) init.body = JSON.stringify(body)
      const response = await fetch(`${app.origin}/forms/api/v1${path}`, init)
      const text = await response.text()
      return {
        status: response.status,
        body: (text === "" ? undefined : JSON.parse(text)) as Json & {
          data: Json & { items: Array<Json> }
          error: Json & { details: Json }
        }
      }
    }

    beforeAll(async () => {
      const started = await startAppOn(target.name)
      ;({ app, key } = started)
      close = started.close
    }, 120_000)
    afterAll(async () => {
      await close()
    })

    it("runs the whole authoring flow", async () => {
      const created = await call("POST", "/forms", { title: "Customer survey" })
      expect(created.status).toBe(201)
      const form = created.body.data
      expect(form).toMatchObject({
        title: "Customer survey",
        kind: "classic",
        status: "draft",
        draftRevision: 1,
        currentVersionId: null
      })
      expect(form.settingsSignature).toMatch(/^sha256:[0-9a-f]{64}$/)
      const id = form.id as string

      expect((await call("GET", `/forms/${id}`)).body.data).toEqual(form)

      // Publishing an empty form is refused.
      expect((await call("POST", `/forms/${id}/publish`, { expectedDraftRevision: 1 })).status).toBe(422)

      const patched = await call("PATCH", `/forms/${id}`, {
        definition: definition(["Name"]),
        expectedDraftRevision: 1
      })
      expect(patched.status).toBe(200)
      expect(patched.body.data.draftRevision).toBe(2)
      const stale = await call("PATCH", `/forms/${id}`, {
        definition: definition(["Other"]),
        expectedDraftRevision: 1
      })
      expect(stale.status).toBe(409)
      expect(stale.body.error).toMatchObject({ code: "conflict", details: { draftRevision: 2 } })

      const badDefinition = await call("PATCH", `/forms/${id}`, {
        definition: { schemaVersion: 1, blocks: [{ id: "x" }] },
        expectedDraftRevision: 2
      })
      expect(badDefinition.status).toBe(400)
      expect(badDefinition.body.error.code).toBe("invalid")

      const signature = patched.body.data.settingsSignature as string
      const settings = await call("PATCH", `/forms/${id}/settings`, {
        settings: { locale: "ko" },
        expectedSettingsSignature: signature
      })
      expect(settings.status).toBe(200)
      expect(settings.body.data.settingsSignature).not.toBe(signature)
      const staleSettings = await call("PATCH", `/forms/${id}/settings`, {
        settings: { locale: "ja" },
        expectedSettingsSignature: signature
      })
      expect(staleSettings.status).toBe(409)
      expect(staleSettings.body.error.details).toEqual({
        settingsSignature: settings.body.data.settingsSignature
      })

      const published = await call("POST", `/forms/${id}/publish`, { expectedDraftRevision: 2 })
      expect(published.status).toBe(200)
      expect(published.body.data.status).toBe("published")
      const republished = await call("POST", `/forms/${id}/publish`, { expectedDraftRevision: 2 })
      expect(republished.body.data.currentVersionId).not.toBe(published.body.data.currentVersionId)
      expect((await call("POST", `/forms/${id}/publish`, { expectedDraftRevision: 1 })).status).toBe(409)

      const page1 = await call("GET", `/forms/${id}/versions?limit=1`)
      expect(page1.body.data.items.map((v) => v.version)).toEqual([2])
      expect(page1.body.data.items[0]).not.toHaveProperty("definition")
      const page2 = await call(
        "GET",
        `/forms/${id}/versions?limit=1&cursor=${encodeURIComponent(page1.body.data.nextCursor as string)}`
      )
      expect(page2.body.data.items.map((v) => v.version)).toEqual([1])
      expect(page2.body.data.nextCursor).toBeNull()
      const v1 = await call("GET", `/forms/${id}/versions/${page2.body.data.items[0]?.id}`)
      expect(v1.body.data).toMatchObject({ version: 1, kind: "classic", formId: id })
      expect((v1.body.data.definition as Json).blocks).toHaveLength(1)

      const unpublished = await call("POST", `/forms/${id}/unpublish`, { expectedDraftRevision: 2 })
      expect(unpublished.body.data.status).toBe("draft")

      const slug = await call("PATCH", `/forms/${id}/slug`, { slug: `customer-survey-${target.name}` })
      expect(slug.body.data.slug).toBe(`customer-survey-${target.name}`)
      expect((await call("PATCH", `/forms/${id}/slug`, { slug: "Not A Slug" })).status).toBe(400)

      const copy = await call("POST", `/forms/${id}/duplicate`)
      expect(copy.status).toBe(201)
      expect(copy.body.data).toMatchObject({
        title: "Customer survey (copy)",
        status: "draft",
        draftRevision: 1
      })
      expect(copy.body.data.draftDefinition).toEqual(patched.body.data.draftDefinition)
      const taken = await call("PATCH", `/forms/${copy.body.data.id}/slug`, {
        slug: `customer-survey-${target.name}`
      })
      expect(taken.status).toBe(409)

      const asset = await fetch(`${app.origin}/forms/api/v1/forms/${id}/assets`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "image/png" },
        body: PNG
      })
      expect(asset.status).toBe(201)
      expect(((await asset.json()) as { data: { key: string } }).data.key).toMatch(/\.png$/)
      const notImage = await fetch(`${app.origin}/forms/api/v1/forms/${id}/assets`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "image/png" },
        body: "<svg/>"
      })
      expect(notImage.status).toBe(400)
      const huge = await fetch(`${app.origin}/forms/api/v1/forms/${id}/assets`, {
        method: "POST",
        headers: bearer(key),
        body: new Uint8Array(5 * 1024 * 1024 + 10)
      })
      expect(huge.status).toBe(413)

      const listed = await call("GET", "/forms?search=customer&limit=10")
      expect(listed.body.data.items.map((f) => f.id)).toEqual(expect.arrayContaining([id, copy.body.data.id]))
      expect((await call("GET", "/forms?limit=0")).status).toBe(400)
      expect((await call("GET", "/forms?limit=101")).status).toBe(400)
      expect((await call("GET", "/forms?cursor=garbage")).status).toBe(400)

      expect((await call("DELETE", `/forms/${id}`)).status).toBe(204)
      expect((await call("GET", `/forms/${id}`)).status).toBe(404)
      expect((await call("DELETE", `/forms/${id}`)).status).toBe(404)
    })

    it("keeps workspaces apart and enforces every route's scope", async () => {
      const form = (await call("POST", "/forms", { title: "Private" })).body.data
      const other = await newWorkspaceKey(app, [...FORMS_SCOPES])
      for (const [method, path, body] of [
        ["GET", `/forms/${form.id}`, undefined],
        ["PATCH", `/forms/${form.id}`, { definition: definition(["x"]), expectedDraftRevision: 1 }],
        ["DELETE", `/forms/${form.id}`, undefined],
        ["GET", `/forms/${form.id}/versions`, undefined],
        ["POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 }]
      ] as const) {
        expect((await call(method, path, body, other.key)).status).toBe(404)
      }
      const routes: ReadonlyArray<readonly [string, string, unknown, ReadonlyArray<string>]> = [
        ["GET", "/forms", undefined, ["forms:read"]],
        ["POST", "/forms", { title: "x" }, ["forms:write"]],
        ["GET", `/forms/${form.id}`, undefined, ["forms:read"]],
        [
          "PATCH",
          `/forms/${form.id}`,
          { definition: definition(["x"]), expectedDraftRevision: 1 },
          ["forms:write"]
        ],
        ["GET", `/forms/${form.id}/versions`, undefined, ["forms:read"]],
        ["POST", `/forms/${form.id}/duplicate`, undefined, ["forms:write", "forms:read"]],
        ["POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 }, ["forms:publish"]],
        ["POST", `/forms/${form.id}/unpublish`, { expectedDraftRevision: 1 }, ["forms:publish"]],
        ["PATCH", `/forms/${form.id}/slug`, { slug: "abc-def" }, ["forms:write"]],
        [
          "PATCH",
          `/forms/${form.id}/settings`,
          { settings: {}, expectedSettingsSignature: "x" },
          ["forms:write"]
        ],
        ["POST", `/forms/${form.id}/assets`, undefined, ["assets:write"]],
        ["GET", `/forms/${form.id}/responses`, undefined, ["responses:read"]],
        [
          "GET",
          `/forms/${form.id}/responses/00000000-0000-4000-8000-000000000000`,
          undefined,
          ["responses:read"]
        ],
        ["DELETE", `/forms/${form.id}`, undefined, ["forms:write"]]
      ]
      const ws = await newWorkspaceKey(app, [])
      for (const [method, path, body, needs] of routes) {
        for (const missing of needs) {
          const scopes = FORMS_SCOPES.filter((s) => s !== missing)
          const k = (await newWorkspaceKey(app, scopes)).key
          const r = await call(method, path.replace(String(form.id), String(form.id)), body, k)
          // Another workspace's key without the scope: still 403 before any lookup.
          expect(r.status).toBe(403)
          expect(r.body.error.code).toBe("forbidden")
        }
      }
      expect((await call("GET", "/forms", undefined, ws.key)).status).toBe(403)
    })

    it("lets exactly one of 50 concurrent PATCHes win, and numbers 20 concurrent publishes without gaps", async () => {
      const form = (await call("POST", "/forms", { title: "Race" })).body.data
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          call("PATCH", `/forms/${form.id}`, {
            definition: definition([`Writer ${i}`]),
            expectedDraftRevision: 1
          })
        )
      )
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      expect(results.filter((r) => r.status === 409)).toHaveLength(49)
      expect((await call("GET", `/forms/${form.id}`)).body.data.draftRevision).toBe(2)

      const publishes = await Promise.all(
        Array.from({ length: 20 }, () =>
          call("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 2 })
        )
      )
      const ok = publishes.filter((r) => r.status === 200).length
      expect(ok).toBeGreaterThan(0)
      expect(publishes.every((r) => r.status === 200 || r.status === 409)).toBe(true)
      const versions = (await call("GET", `/forms/${form.id}/versions?limit=100`)).body.data.items.map(
        (v) => v.version
      )
      expect(versions).toEqual(Array.from({ length: ok }, (_, i) => ok - i))
    })
  })
}
