// A workspace's view of the forms API in tests: authoring calls with its key, publishing a form at a
// slug, and reading back the answers of completed responses.
import type { RunningApp } from "./app.js"
import { bearer } from "./keys.js"

export interface FormsClient {
  readonly api: (
    method: string,
    path: string,
    body?: unknown
  ) => Promise<{
    status: number
    body: { data: Record<string, unknown> & { items?: Array<Record<string, unknown>> } }
  }>
  /** Creates, names and publishes a form; answers its id. */
  readonly publish: (slug: string, definition: unknown, settings?: unknown) => Promise<string>
  /** The answers of the form's completed responses, newest first. */
  readonly completedAnswers: (formId: string) => Promise<Array<Record<string, unknown>>>
}

export const formsClient = (app: RunningApp, key: string): FormsClient => {
  const api: FormsClient["api"] = async (method, path, body) => {
    const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
      method,
      headers: { ...bearer(key), "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? { data: {} } : JSON.parse(text) }
  }
  return {
    api,
    publish: async (slug, definition, settings) => {
      const created = await api("POST", "/forms", {
        title: `Form ${slug}`,
        definition,
        ...(settings === undefined ? {} : { settings })
      })
      if (created.status !== 201)
        throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`)
      const id = String(created.body.data.id)
      const named = await api("PATCH", `/forms/${id}/slug`, { slug })
      if (named.status !== 200) throw new Error(`slug answered ${named.status}`)
      const published = await api("POST", `/forms/${id}/publish`, {
        expectedDraftRevision: created.body.data.draftRevision
      })
      if (published.status !== 200) throw new Error(`publish answered ${published.status}`)
      return id
    },
    completedAnswers: async (formId) => {
      const list = await api("GET", `/forms/${formId}/responses?projection=full`)
      return (list.body.data.items ?? []).map((r) => r.answers as Record<string, unknown>)
    }
  }
}
