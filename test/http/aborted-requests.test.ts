// Clients that hang up mid-request (a load generator stopping, a browser tab closing) must not
// break the store for everyone after them: on the embedded database an aborted request's statement
// is cancelled on a side connection, which once left the client unable to reconnect (500s forever).
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer } from "../support/keys.js"
import { startAppOn } from "../support/storage.js"

let target: Awaited<ReturnType<typeof startAppOn>>
let formId = ""

beforeAll(async () => {
  target = await startAppOn("pglite", { rateLimitPerKey: 10_000_000, authAttemptsPerIp: 10_000_000 })
  const created = await fetch(`${target.app.origin}/forms/api/v1/forms`, {
    method: "POST",
    headers: { ...bearer(target.key), "content-type": "application/json" },
    body: JSON.stringify({ title: "Aborted" })
  })
  formId = ((await created.json()) as { data: { id: string } }).data.id
}, 60_000)
afterAll(async () => {
  await target?.close()
})

describe("requests aborted mid-flight on PGlite", () => {
  it("leave the store answering every request after them", async () => {
    const url = `${target.app.origin}/forms/api/v1/forms/${formId}`
    const deadline = Date.now() + 4_000
    let aborted = 0
    // 32 clients that each abort one request in three after a random few milliseconds.
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (Date.now() < deadline) {
          const controller = new AbortController()
          const abort = Math.random() < 1 / 3
          if (abort) setTimeout(() => controller.abort(), Math.floor(Math.random() * 4))
          try {
            const response = await fetch(url, { headers: bearer(target.key), signal: controller.signal })
            await response.arrayBuffer()
          } catch {
            aborted++
          }
        }
      })
    )
    expect(aborted).toBeGreaterThan(0)
    const statuses = await Promise.all(
      Array.from({ length: 20 }, async () => (await fetch(url, { headers: bearer(target.key) })).status)
    )
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200))
  }, 60_000)
})
