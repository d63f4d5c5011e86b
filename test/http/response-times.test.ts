// The times of a response as both APIs show them: `completedAt` is when it was completed (null while
// partial, in the owner API as in the respondent API), `updatedAt` its last write.
import { FORMS_SCOPES } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { blk } from "../support/builders.js"

type Json = { data: Record<string, unknown> & { items?: Array<Record<string, unknown>> } }

let app: RunningApp
let key: string
const definition = {
  schemaVersion: 1,
  blocks: [{ id: blk(1), type: "short_text", label: "Name", required: true }]
}

const request = async (method: string, path: string, body?: unknown, auth?: string) => {
  const response = await fetch(`${app.origin}${path}`, {
    method,
    headers: {
      ...(auth === undefined ? {} : bearer(auth)),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Json }
}
const api = (method: string, path: string, body?: unknown) =>
  request(method, `/forms/api/v1${path}`, body, key)
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
})
afterAll(() => app.close())

describe("response times", () => {
  it("keep completedAt null until completion and show the last save as updatedAt", async () => {
    const form = (
      await api("POST", "/forms", {
        title: "Times",
        definition,
        settings: {
          submission: { allowResponseEditing: true }
        }
      })
    ).body.data as { id: string; slug: string }
    expect((await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })).status).toBe(200)
    const started = (await request("POST", `/f/${form.slug}/responses`, {})).body.data as {
      responseId: string
      token: string
    }
    const path = `/f/${form.slug}/responses/${started.responseId}`
    await pause(5)
    const saved = await request("PATCH", path, { token: started.token, answers: { [blk(1)]: "Ada" } })
    expect(saved.status).toBe(200)
    expect(saved.body.data.completedAt).toBeNull()

    const detail = await api("GET", `/forms/${form.id}/responses/${started.responseId}`)
    expect(detail.status).toBe(200)
    expect(detail.body.data).toMatchObject({ status: "partial", completedAt: null })
    const savedAt = Date.parse(String(detail.body.data.updatedAt))
    expect(Number.isNaN(savedAt)).toBe(false)
    for (const projection of ["compact", "full"]) {
      const list = await api("GET", `/forms/${form.id}/responses?status=partial&projection=${projection}`)
      expect(list.status).toBe(200)
      expect(list.body.data.items).toEqual([
        expect.objectContaining({
          id: started.responseId,
          completedAt: null,
          updatedAt: detail.body.data.updatedAt
        })
      ])
    }

    await pause(5)
    const done = await request("POST", `${path}/complete`, { token: started.token })
    expect(done.status).toBe(200)
    const completedAt = String(done.body.data.completedAt)
    const completed = (await api("GET", `/forms/${form.id}/responses/${started.responseId}`)).body.data
    expect(completed).toMatchObject({ status: "completed", completedAt, updatedAt: completedAt })
    expect(Date.parse(completedAt)).toBeGreaterThan(savedAt)

    // An edit moves updatedAt; the completion time stays.
    await pause(5)
    const edited = await request("PATCH", path, { token: started.token, answers: { [blk(1)]: "Eve" } })
    expect(edited.status).toBe(200)
    expect(edited.body.data.completedAt).toBe(completedAt)
    const after = (await api("GET", `/forms/${form.id}/responses/${started.responseId}`)).body.data
    expect(after.completedAt).toBe(completedAt)
    expect(Date.parse(String(after.updatedAt))).toBeGreaterThan(Date.parse(completedAt))
  })
})
