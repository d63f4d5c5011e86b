// A CSV export that fails after its first byte must look failed to the client: the connection is
// cut without the chunked terminator (curl and browsers report an error), never a clean 200 holding
// part of the rows. On shutdown, an export in flight finishes when it can within the grace period.
import { request } from "node:http"
import { MemoryStorageLive } from "@folio/adapters-storage"
import { FORMS_SCOPES, type NewResponseRecord, ResponseRepository, StorageError } from "@folio/domain"
import { Effect, Layer } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { openStorage, storageSkipped } from "../support/storage.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"

const ROWS = 2_600

/** The memory store, whose page reads fail after the second page, as a lost database connection would. */
const failingStorage = () => {
  const state = { pagesRead: 0 }
  const responses = Layer.effect(
    ResponseRepository,
    Effect.map(ResponseRepository, (inner) =>
      ResponseRepository.of({
        ...inner,
        list: (workspaceId, formId, query) =>
          ++state.pagesRead > 2
            ? Effect.fail(new StorageError({ message: "connection to the database was lost" }))
            : inner.list(workspaceId, formId, query)
      })
    )
  ).pipe(Layer.provide(MemoryStorageLive))
  return { state, storage: Layer.merge(MemoryStorageLive, responses) }
}

const seedForm = async (app: RunningApp, rows: number, answerLength = 200) => {
  const { workspaceId, key } = await newWorkspaceKey(app, FORMS_SCOPES)
  const post = async (path: string, body: unknown) =>
    (await (
      await fetch(`${app.origin}/forms/api/v1${path}`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    ).json()) as { data: Record<string, unknown> }
  const definition = {
    schemaVersion: 1,
    blocks: [{ id: "blk_00000001", type: "long_text", label: "Say something" }]
  }
  const created = await post("/forms", { title: "Export", definition })
  const formId = created.data.id as string
  const published = await post(`/forms/${formId}/publish`, {
    expectedDraftRevision: created.data.draftRevision
  })
  const formVersionId = published.data.currentVersionId as string
  await app.run(
    Effect.gen(function* () {
      const repo = yield* ResponseRepository
      const base = Date.UTC(2026, 0, 1)
      for (let i = 0; i < rows; i++) {
        const at = new Date(base + i * 1000)
        const record: NewResponseRecord = {
          id: `0190d0c0-0000-7000-8000-${String(i).padStart(12, "0")}`,
          workspaceId,
          formId,
          formVersionId,
          status: "completed",
          answers: { blk_00000001: `answer number ${i} ${"x".repeat(answerLength)}` },
          meta: {},
          createdAt: at,
          updatedAt: at,
          completedAt: at
        }
        yield* repo.insert(record)
      }
    })
  )
  return { key, formId }
}

interface Received {
  readonly status: number
  readonly body: string
  /** How the response ended: "complete" (terminator seen) or "aborted" (cut without one). */
  readonly ending: "complete" | "aborted"
}

/** A raw HTTP GET that reports whether the chunked body ended cleanly; `onFirstChunk` runs once. */
const download = (url: string, key: string, onFirstChunk: () => void = () => {}) =>
  new Promise<Received>((resolve, reject) => {
    const req = request(url, { headers: bearer(key) }, (res) => {
      let body = ""
      let first = true
      let settled = false
      const done = (ending: Received["ending"]) => {
        if (settled) return
        settled = true
        resolve({ status: res.statusCode ?? 0, body, ending })
      }
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => {
        body += chunk
        if (first) {
          first = false
          onFirstChunk()
        }
      })
      res.on("end", () => done("complete"))
      res.on("aborted", () => done("aborted"))
      res.on("error", () => done("aborted"))
      res.on("close", () => done(res.complete ? "complete" : "aborted"))
    })
    req.on("error", reject)
    req.end()
  })

const dataLines = (body: string) => body.split("\n").filter((l) => l.startsWith("0190d0c0"))

describe("the CSV export stream", () => {
  let app: RunningApp | undefined
  afterEach(async () => {
    await app?.close()
    app = undefined
  })

  it("ends cleanly with every row when nothing fails", async () => {
    app = await startApp()
    const { key, formId } = await seedForm(app, ROWS)
    const got = await download(`${app.origin}/forms/api/v1/forms/${formId}/responses.csv`, key)
    expect(got.status).toBe(200)
    expect(got.ending).toBe("complete")
    expect(dataLines(got.body)).toHaveLength(ROWS)
  })

  it("is cut without the terminating chunk when the database fails mid-export", async () => {
    const { state, storage } = failingStorage()
    app = await startApp({ storage })
    const { key, formId } = await seedForm(app, ROWS)
    state.pagesRead = 0
    const got = await download(`${app.origin}/forms/api/v1/forms/${formId}/responses.csv`, key)
    expect(state.pagesRead).toBe(3)
    expect(got.status).toBe(200)
    expect(dataLines(got.body).length).toBeLessThan(ROWS)
    expect(got.ending).toBe("aborted")
    // The server stays healthy for the next request.
    expect((await fetch(`${app.origin}/healthz`)).status).toBe(200)
  })
})

describe.each(["pglite", "postgres"] as const)("the CSV export stream at shutdown [%s]", (name) => {
  let drop: () => Promise<void> = async () => {}
  afterEach(async () => {
    await drop()
  })

  const open = async (shutdownGraceMs: number) => {
    const opened = await openStorage(name)
    drop = opened.drop
    return startApp({ storage: opened.storage, config: { shutdownGraceMs } })
  }

  it.skipIf(storageSkipped(name))("lets an export in flight finish within the grace period", async () => {
    const running = await open(10_000)
    const { key, formId } = await seedForm(running, 600, 2_000)
    let closing: Promise<void> | undefined
    const got = await download(`${running.origin}/forms/api/v1/forms/${formId}/responses.csv`, key, () => {
      closing = running.close()
    })
    await closing
    expect(got.status).toBe(200)
    expect(got.ending).toBe("complete")
    expect(dataLines(got.body)).toHaveLength(600)
  })

  it.skipIf(storageSkipped(name))(
    "cuts an export without the terminating chunk when the grace period runs out",
    async () => {
      const running = await open(300)
      // About 10 MB of CSV: more than the socket buffers hold while the client is not reading.
      const { key, formId } = await seedForm(running, 300, 32_000)
      let closing: Promise<void> | undefined
      const url = `${running.origin}/forms/api/v1/forms/${formId}/responses.csv`
      // A client that stops reading after the first chunk holds the export past the grace period.
      const got = await new Promise<Received>((resolve, reject) => {
        const req = request(url, { headers: bearer(key) }, (res) => {
          let body = ""
          res.setEncoding("utf8")
          res.once("data", (chunk: string) => {
            body += chunk
            res.pause()
            closing = running.close()
            setTimeout(() => {
              res.on("data", (more: string) => {
                body += more
              })
              res.resume()
            }, 1_500)
          })
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body, ending: "complete" }))
          res.on("error", () => resolve({ status: res.statusCode ?? 0, body, ending: "aborted" }))
          res.on("aborted", () => resolve({ status: res.statusCode ?? 0, body, ending: "aborted" }))
        })
        req.on("error", reject)
        req.end()
      })
      await closing
      expect(got.status).toBe(200)
      expect(got.ending).toBe("aborted")
      expect(dataLines(got.body).length).toBeLessThan(300)
    }
  )
})
