// Scopes and ownership over REST: a partial response needs responses:partial:read on the detail
// route as on the list; image keys (image blocks, choice images, theme logo and cover) must name an
// existing asset of the caller's workspace on create, definition PATCH, settings PATCH and duplicate.
import { FORMS_SCOPES, FormRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startPartialResponse } from "../support/respondent.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

type Json = Record<string, unknown>
interface Answer {
  readonly status: number
  readonly body: Json & {
    data: Json
    error: { code: string; details?: { issues?: unknown; requiredScopes?: unknown } }
  }
}

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82])
const NAME = { id: "blk_00000001", type: "short_text", label: "Name" }

let app: RunningApp
let owner: { key: string; workspaceId: string }

const call = async (key: string, method: string, path: string, body?: unknown): Promise<Answer> => {
  const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Answer["body"] }
}

const uploadAsset = async (key: string, formId: string) => {
  const response = await fetch(`${app.origin}/forms/api/v1/forms/${formId}/assets`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "image/png" },
    body: PNG
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { key: string } }).data.key
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  owner = await newWorkspaceKey(app, [...FORMS_SCOPES])
}, 60_000)
afterAll(async () => {
  await app.close()
})

describe("partial responses over REST", () => {
  it("need responses:partial:read on the detail route, as on the list", async () => {
    const created = await call(owner.key, "POST", "/forms", {
      title: "Partial detail",
      definition: { schemaVersion: 1, blocks: [NAME] }
    })
    const form = created.body.data as { id: string; slug: string }
    await call(owner.key, "POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
    const { responseId, token } = await startPartialResponse(app.origin, form.slug, {
      blk_00000001: "half typed"
    })

    const reader = await newWorkspaceKeyIn(owner.workspaceId, ["responses:read"])
    const refused = await call(reader, "GET", `/forms/${form.id}/responses/${responseId}`)
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatchObject({
      code: "forbidden",
      details: { requiredScopes: ["responses:read", "responses:partial:read"] }
    })
    expect(JSON.stringify(refused.body)).not.toContain("half typed")
    // The list says the same.
    const listed = await call(reader, "GET", `/forms/${form.id}/responses?status=partial`)
    expect(listed.status).toBe(403)

    const partialReader = await newWorkspaceKeyIn(owner.workspaceId, [
      "responses:read",
      "responses:partial:read"
    ])
    const allowed = await call(partialReader, "GET", `/forms/${form.id}/responses/${responseId}`)
    expect(allowed.status).toBe(200)
    expect(allowed.body.data).toMatchObject({
      id: responseId,
      status: "partial",
      answers: { blk_00000001: "half typed" }
    })

    // A completed response needs only responses:read.
    await fetch(`${app.origin}/f/${form.slug}/responses/${responseId}/complete`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token })
    })
    expect((await call(reader, "GET", `/forms/${form.id}/responses/${responseId}`)).status).toBe(200)
  })
})

/** A second key of an existing workspace, with the given scopes. */
const newWorkspaceKeyIn = async (workspaceId: string, scopes: ReadonlyArray<string>) => {
  const { issueApiKey } = await import("@folio/domain")
  return app.run(
    Effect.map(
      issueApiKey({ tenantId: workspaceId, service: "forms", name: "scoped", scopes }),
      (k) => k.plaintext
    )
  )
}

describe("image ownership over REST", () => {
  let ownKey = ""
  let ownFormId = ""
  let foreignKey = ""
  let respondentKey = ""
  let attacker: { key: string; workspaceId: string }

  beforeAll(async () => {
    const created = await call(owner.key, "POST", "/forms", { title: "Asset holder" })
    ownFormId = (created.body.data as { id: string }).id
    ownKey = await uploadAsset(owner.key, ownFormId)
    attacker = await newWorkspaceKey(app, [...FORMS_SCOPES])
    foreignKey = ownKey
    // A respondent upload's key has the same workspace prefix but is not an authoring asset.
    respondentKey = `workspaces/${attacker.workspaceId}/forms/${crypto.randomUUID()}/responses/${crypto.randomUUID()}/${crypto.randomUUID()}`
  })

  const imageDefinition = (key: string) => ({
    schemaVersion: 1,
    blocks: [NAME, { id: "blk_00000002", type: "image", imageKey: key }]
  })
  const choiceDefinition = (key: string) => ({
    schemaVersion: 1,
    blocks: [
      {
        id: "blk_00000003",
        type: "multiple_choice",
        label: "Pick",
        options: {
          choices: [
            { id: "a", label: "A" },
            { id: "b", label: "B", imageKey: key }
          ]
        }
      }
    ]
  })
  const ownership = (path: ReadonlyArray<string | number>) => ({
    code: "invalid",
    details: { issues: [{ path, rule: "assetOwnership" }] }
  })

  it("refuses another workspace's asset, a respondent upload and a made-up key on create", async () => {
    const missing = `workspaces/${attacker.workspaceId}/forms/${crypto.randomUUID()}/assets/${crypto.randomUUID()}.png`
    for (const key of [foreignKey, respondentKey, missing, "logo.png"]) {
      const image = await call(attacker.key, "POST", "/forms", {
        title: "x",
        definition: imageDefinition(key)
      })
      expect([key, image.status]).toEqual([key, 400])
      expect(image.body.error).toMatchObject(ownership(["definition", "blocks", 1, "imageKey"]))
      expect(JSON.stringify(image.body)).not.toContain(key)
      const choice = await call(attacker.key, "POST", "/forms", {
        title: "x",
        definition: choiceDefinition(key)
      })
      expect(choice.body.error).toMatchObject(
        ownership(["definition", "blocks", 0, "options", "choices", 1, "imageKey"])
      )
      for (const field of ["logoKey", "coverKey"]) {
        const themed = await call(attacker.key, "POST", "/forms", {
          title: "x",
          settings: { theme: { [field]: key } }
        })
        expect([field, themed.status]).toEqual([field, 400])
        expect(themed.body.error).toMatchObject(ownership(["settings", "theme", field]))
      }
    }
    const list = await call(attacker.key, "GET", "/forms")
    expect((list.body.data as { items: unknown[] }).items).toEqual([])
  })

  it("accepts the workspace's own assets, from any of its forms", async () => {
    const created = await call(owner.key, "POST", "/forms", {
      title: "Own images",
      definition: imageDefinition(ownKey),
      settings: { theme: { logoKey: ownKey, coverKey: ownKey } }
    })
    expect(created.status).toBe(201)
    const choice = await call(owner.key, "POST", "/forms", {
      title: "Own choice",
      definition: choiceDefinition(ownKey)
    })
    expect(choice.status).toBe(201)
  })

  it("refuses a foreign key on definition PATCH and settings PATCH, and stores nothing", async () => {
    const created = await call(attacker.key, "POST", "/forms", { title: "Mine" })
    const form = created.body.data as { id: string; draftRevision: number; settingsSignature: string }
    const patched = await call(attacker.key, "PATCH", `/forms/${form.id}`, {
      definition: imageDefinition(foreignKey),
      expectedDraftRevision: form.draftRevision
    })
    expect(patched.status).toBe(400)
    expect(patched.body.error).toMatchObject(ownership(["definition", "blocks", 1, "imageKey"]))
    const settings = await call(attacker.key, "PATCH", `/forms/${form.id}/settings`, {
      settings: { theme: { coverKey: foreignKey } },
      expectedSettingsSignature: form.settingsSignature
    })
    expect(settings.status).toBe(400)
    expect(settings.body.error).toMatchObject(ownership(["settings", "theme", "coverKey"]))
    const read = await call(attacker.key, "GET", `/forms/${form.id}`)
    expect(read.body.data).toMatchObject({
      draftRevision: form.draftRevision,
      settingsSignature: form.settingsSignature
    })
  })

  it("re-applies the checks on duplicate: a stored foreign key (legacy data) blocks the copy", async () => {
    const created = await call(attacker.key, "POST", "/forms", {
      title: "Legacy",
      definition: { schemaVersion: 1, blocks: [NAME] }
    })
    const form = created.body.data as { id: string }
    // Data written before the check existed: put the foreign key into the stored draft directly.
    await app.run(
      Effect.gen(function* () {
        const repo = yield* FormRepository
        const stored = Option.getOrThrow(yield* repo.get(attacker.workspaceId, form.id))
        yield* repo.save({
          ...stored,
          draftDefinition: imageDefinition(foreignKey),
          rowVersion: stored.rowVersion + 1
        })
      })
    )
    const copy = await call(attacker.key, "POST", `/forms/${form.id}/duplicate`)
    expect(copy.status).toBe(400)
    expect(copy.body.error).toMatchObject(ownership(["definition", "blocks", 1, "imageKey"]))
    // The owner's own form with its own images copies fine.
    const own = await call(owner.key, "POST", "/forms", {
      title: "Copy me",
      definition: imageDefinition(ownKey)
    })
    const ownCopy = await call(owner.key, "POST", `/forms/${(own.body.data as { id: string }).id}/duplicate`)
    expect(ownCopy.status).toBe(201)
  })
})
