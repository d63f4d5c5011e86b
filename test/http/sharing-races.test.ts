// Writes the client did not make conditional, raced over real HTTP on PGlite and PostgreSQL: none
// may fail because another writer's version landed first (no 412 without a precondition), and a
// revoke of an upload request always wins over the status calls racing it. Many rounds, so a write
// that gives up after a few lost races fails here reliably on PostgreSQL.
import { describe, expect, it } from "vitest"
import { SHARING_FILE_TARGETS } from "../support/sharing-app.js"
import { ALL_SHARING_SCOPES, sharingSuite } from "../support/sharing-suite.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"

const PARALLEL = 10
const ROUNDS = 8
const STATUSES = ["open", "paused", "completed"] as const

for (const target of SHARING_FILE_TARGETS) {
  describe(`racing writes without a precondition [${target.db}, ${target.blob}]`, () => {
    const { app, owner } = sharingSuite(target, { owner: ALL_SHARING_SCOPES })
    const call = (
      method: string,
      path: string,
      options: Parameters<ReturnType<typeof sharingClientOf>["call"]>[2] = {}
    ) => sharingClientOf(app.origin).call(method, path, { key: owner.key, ...options })
    const statusesOf = (answers: ReadonlyArray<{ status: number }>) => answers.map((a) => a.status)
    const all = <A>(n: number, f: (i: number) => Promise<A>) =>
      Promise.all(Array.from({ length: n }, (_, i) => f(i)))

    it("revokes an upload request whatever status calls race it, and they never answer 412", async () => {
      for (let round = 0; round < ROUNDS; round++) {
        const made = await call("POST", "/upload-requests", { body: { title: `Round ${round}` } })
        const id = made.body.id as string
        const revokeAt = round % PARALLEL
        const answers = await all(PARALLEL, (i) =>
          i === revokeAt
            ? call("POST", `/upload-requests/${id}/revoke`)
            : call("POST", `/upload-requests/${id}/status`, { body: { status: STATUSES[i % 3] } })
        )
        expect(answers[revokeAt]?.status, `round ${round}`).toBe(200)
        for (const [i, a] of answers.entries())
          if (i !== revokeAt) {
            // Before the revoke it lands; after it, the request takes no change (400 on id).
            expect([200, 400], `round ${round}: ${JSON.stringify(a.body)}`).toContain(a.status)
            if (a.status === 400)
              expect(a.body).toMatchObject({ error_code: "validation_failed", field: "id" })
          }
        const after = await call("GET", `/upload-requests/${id}`)
        expect(after.body, `round ${round}`).toMatchObject({ revoked: true, accepting: false })
        expect((await fetch(made.body.url as string)).status).toBe(410)
      }
    })

    it("lands every racing upload request PATCH and token rotation", async () => {
      for (let round = 0; round < ROUNDS / 2; round++) {
        const id = (await call("POST", "/upload-requests", { body: { title: "Patched" } })).body.id as string
        const answers = await all(PARALLEL, (i) =>
          i % 2 === 0
            ? call("PATCH", `/upload-requests/${id}`, { body: { title: `Title ${i}` } })
            : call("POST", `/upload-requests/${id}/rotate-token`)
        )
        expect(statusesOf(answers), `round ${round}`).toEqual(Array(PARALLEL).fill(200))
      }
    })

    it("lands every racing webhook PATCH, disable, enable and secret rotation", async () => {
      for (let round = 0; round < ROUNDS / 2; round++) {
        const made = await call("POST", "/webhooks", {
          body: { name: `Hook ${round}`, url: "https://example.com/hook", events: ["resource.created"] }
        })
        expect(made.status).toBe(201)
        const id = made.body.id as string
        const answers = await all(PARALLEL, (i) =>
          i % 4 === 0
            ? call("PATCH", `/webhooks/${id}`, { body: { name: `Name ${i}` } })
            : i % 4 === 1
              ? call("POST", `/webhooks/${id}/disable`)
              : i % 4 === 2
                ? call("POST", `/webhooks/${id}/enable`)
                : call("POST", `/webhooks/${id}/rotate-secret`)
        )
        expect(statusesOf(answers), `round ${round}`).toEqual(Array(PARALLEL).fill(200))
        expect((await call("DELETE", `/webhooks/${id}`)).status).toBe(204)
      }
    })

    it("adds every one of ten racing collection items sent without X-Collection-If-Match", async () => {
      for (let round = 0; round < ROUNDS / 2; round++) {
        const file = new FormData()
        file.append("file", new Blob([`hello ${round}`]), "hello.txt")
        const source = (await call("POST", "/uploads", { form: file })).body.slug as string
        const collection = (await call("POST", "/resources", { body: { type: "collection", title: "Race" } }))
          .body.slug as string
        const added = await all(PARALLEL, (i) =>
          call("POST", `/resources/${collection}/collection/items`, {
            body: { resource: source, display_name: `Copy ${i}` }
          })
        )
        expect(statusesOf(added), `round ${round}`).toEqual(Array(PARALLEL).fill(201))
        const items = (await call("GET", `/resources/${collection}`)).body.items as Array<Json>
        expect(items).toHaveLength(PARALLEL)
        // And every arrangement of those items, sent without a precondition, lands too.
        const arranged = await all(PARALLEL, (i) =>
          call("PATCH", `/resources/${collection}/collection`, {
            body: { items: items.map((item, j) => ({ id: item.id, caption: `${i}-${j}` })) }
          })
        )
        expect(statusesOf(arranged), `round ${round}`).toEqual(Array(PARALLEL).fill(200))
      }
    })

    it("lands every racing resource PATCH, Markdown restore and bio PATCH sent without a precondition", async () => {
      for (let round = 0; round < ROUNDS / 2; round++) {
        const page = await call("POST", "/resources", { body: { type: "markdown", body_markdown: "# One" } })
        const slug = page.body.slug as string
        await call("PATCH", `/resources/${slug}`, { body: { body_markdown: "# Two" } })
        const version = (
          (await call("GET", `/resources/${slug}/markdown/versions`)).body.items as Array<Json>
        )[0]
        const answers = await all(PARALLEL, (i) =>
          i % 3 === 0
            ? call("POST", `/resources/${slug}/markdown/versions/${version?.id as string}/restore`)
            : call("PATCH", `/resources/${slug}`, { body: { title: `Title ${i}`, labels: [`l${i}`] } })
        )
        expect(statusesOf(answers), `round ${round}`).toEqual(Array(PARALLEL).fill(200))

        const bio = (await call("POST", "/resources", { body: { type: "bio", title: "Ada" } })).body
          .slug as string
        const bios = await all(PARALLEL, (i) =>
          call("PATCH", `/resources/${bio}/bio`, {
            body: {
              display_name: `Ada ${i}`,
              pages: [{ slug: "home", title: "Home", blocks: [{ type: "heading", text: `Hi ${i}` }] }]
            }
          })
        )
        expect(
          statusesOf(bios),
          `round ${round}: ${JSON.stringify(bios.find((b) => b.status !== 200)?.body)}`
        ).toEqual(Array(PARALLEL).fill(200))
      }
    })
  })
}
