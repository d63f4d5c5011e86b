// Bulk create and CSV import over real HTTP on memory, PGlite and PostgreSQL: each item succeeds or
// fails on its own, Idempotency-Key replays the stored answer (and refuses another body with it),
// concurrent repeats run once, a re-run of a request that died halfway makes nothing twice, Bitly and
// Linktree exports are read with their row numbers, and the hourly link budget is not spent here.
import { Principal, SharingResources, SharingResourcesLive } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, type SharingClient, sharingClientOf } from "../support/sharing-client.js"
import { startAppOn, storageTargets } from "../support/storage.js"

const ALL = ["read", "write", "delete"]
type Item = Json & { index?: number; row?: number; status: string; resource?: Json }
const itemsOf = (body: Json) => body.items as ReadonlyArray<Item>

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`sharing bulk create and import [${target.name}]`, () => {
    let started: Awaited<ReturnType<typeof startAppOn>>
    let api: SharingClient
    let owner: Awaited<ReturnType<typeof newWorkspaceKey>>
    let readOnly: string
    let n = 0
    const fresh = (prefix: string) => `${prefix}-${target.name}-${++n}`
    const idem = (key: string) => ({ "idempotency-key": key })
    const countWithLabel = async (label: string) => {
      const listed = await api.call("GET", `/resources?label=${label}&limit=100`, { key: owner.key })
      return (listed.body.items as ReadonlyArray<Json>).length
    }

    beforeAll(async () => {
      // A budget of 2 links an hour: bulk create and import must not spend it.
      started = await startAppOn(target.name, {
        sharingRequestsPerKey: 100_000,
        sharingLinkCreationsPerHour: 2
      })
      api = sharingClientOf(started.app.origin)
      owner = await newWorkspaceKey(started.app, ALL, "sharing")
      readOnly = (await newWorkspaceKey(started.app, ["read"], "sharing")).key
    }, 60_000)
    afterAll(async () => started?.close())

    it("creates each valid item and reports each bad one with its own envelope, in order", async () => {
      const label = fresh("batch")
      const slug = fresh("bulk")
      const response = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: {
          items: [
            { type: "link", slug, title: "One", target_url: "https://example.com/1", labels: [label] },
            { target_url: "not a url", labels: [label] },
            { target_url: "https://example.com/3", labels: [label], password: "pw" },
            { type: "markdown", body_markdown: "# no" },
            { target_url: "https://example.com/5", slug, labels: [label] },
            "not an object"
          ]
        }
      })
      expect(response.status).toBe(200)
      expect(response.headers.get("idempotent-replayed")).toBeNull()
      expect(response.body).toMatchObject({ created: 2, failed: 4 })
      const items = itemsOf(response.body)
      expect(items.map((i) => [i.index, i.status])).toEqual([
        [0, "created"],
        [1, "failed"],
        [2, "created"],
        [3, "failed"],
        [4, "failed"],
        [5, "failed"]
      ])
      expect(items[0]?.resource).toMatchObject({
        slug,
        type: "link",
        title: "One",
        url: expect.stringContaining(`/s/${slug}`)
      })
      expect(items[1]).toMatchObject({ error_code: "validation_failed", field: "target_url" })
      expect(items[2]?.resource).toMatchObject({ has_password: true, target_url: "https://example.com/3" })
      expect(items[3]).toMatchObject({ error_code: "validation_failed", field: "type" })
      expect(items[4]).toMatchObject({ error_code: "slug_taken", field: "slug" })
      expect(items[5]).toMatchObject({ error_code: "validation_failed" })
      for (const failed of items.filter((i) => i.status === "failed")) {
        expect(typeof failed.error).toBe("string")
        expect(failed.resource).toBeUndefined()
      }
      expect(await countWithLabel(label)).toBe(2)
      const read = await api.call("GET", `/resources/${slug}`, { key: owner.key })
      expect(read.status).toBe(200)
    })

    it("replays the stored answer for the same key and body, and refuses another body with 409", async () => {
      const key = fresh("k")
      const label = fresh("replay")
      const body = {
        items: [
          { target_url: "https://example.com/a", labels: [label] },
          { target_url: "https://example.com/b", labels: [label] }
        ]
      }
      const first = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(key),
        body
      })
      expect(first.status).toBe(200)
      // The same JSON with its keys in another order is the same request.
      const reordered = { items: body.items.map((i) => ({ labels: i.labels, target_url: i.target_url })) }
      const again = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(key),
        body: reordered
      })
      expect(again.status).toBe(200)
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.body).toEqual(first.body)
      expect(await countWithLabel(label)).toBe(2)

      const other = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(key),
        body: { items: [{ target_url: "https://example.com/c" }] }
      })
      expect(other.status).toBe(409)
      expect(other.body).toMatchObject({ error_code: "idempotency_conflict" })
      // Keys are the account's own: another account may use the same key freely.
      const stranger = await newWorkspaceKey(started.app, ALL, "sharing")
      const theirs = await api.call("POST", "/resources/bulk-create", {
        key: stranger.key,
        headers: idem(key),
        body
      })
      expect(theirs.status).toBe(200)
      expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    })

    it("runs concurrent repeats of one request once", async () => {
      const key = fresh("k")
      const label = fresh("race")
      const body = {
        items: Array.from({ length: 20 }, (_, i) => ({
          target_url: `https://example.com/race/${i}`,
          labels: [label]
        }))
      }
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          api.call("POST", "/resources/bulk-create", { key: owner.key, headers: idem(key), body })
        )
      )
      const ok = answers.filter((a) => a.status === 200)
      expect(ok.length).toBeGreaterThanOrEqual(1)
      for (const a of answers.filter((x) => x.status !== 200)) {
        expect(a.status).toBe(409)
        expect(a.body).toMatchObject({ error_code: "idempotency_conflict" })
        expect(a.headers.get("retry-after")).toBe("1")
      }
      for (const a of ok) expect(a.body).toEqual(ok[0]?.body)
      expect(await countWithLabel(label)).toBe(20)
      const replay = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(key),
        body
      })
      expect(replay.body).toEqual(ok[0]?.body)
    })

    it("a re-run of a request that died halfway answers the links it made instead of making them again", async () => {
      const label = fresh("rerun")
      const items = Array.from({ length: 5 }, (_, i) => ({
        target_url: `https://example.com/r/${i}`,
        labels: [label]
      }))
      const principal = Principal.of({
        tenant: owner.workspaceId,
        service: "sharing",
        scopes: ALL,
        keyId: owner.keyId
      })
      const run = (batch: ReadonlyArray<unknown>) =>
        started.app.run(
          Effect.gen(function* () {
            return yield* (yield* SharingResources).createLinks(batch, "seed-of-one-request")
          }).pipe(Effect.provide(SharingResourcesLive), Effect.provideService(Principal, principal))
        )
      // The first run got through three items before it died.
      const partial = await run(items.slice(0, 3))
      const whole = await run(items)
      const ids = (outcomes: typeof whole) =>
        outcomes.map((o) => (o._tag === "Created" ? o.resource.id : o._tag))
      expect(ids(whole).slice(0, 3)).toEqual(ids(partial))
      expect(whole.every((o) => o._tag === "Created")).toBe(true)
      expect(await countWithLabel(label)).toBe(5)
    })

    it("refuses a missing Idempotency-Key, an empty or oversized batch, other scopes and no key", async () => {
      const missing = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        body: { items: [{ target_url: "https://example.com" }] }
      })
      expect(missing.status).toBe(400)
      expect(missing.body).toMatchObject({ error_code: "validation_failed", field: "idempotency-key" })
      const empty = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { items: [] }
      })
      expect(empty.body).toMatchObject({ error_code: "validation_failed", field: "items" })
      const many = await api.call("POST", "/resources/bulk-create", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { items: Array.from({ length: 201 }, () => ({ target_url: "https://example.com" })) }
      })
      expect(many.status).toBe(400)
      expect(many.body).toMatchObject({ error_code: "validation_failed", field: "items" })
      const scope = await api.call("POST", "/resources/bulk-create", {
        key: readOnly,
        headers: idem(fresh("k")),
        body: { items: [{ target_url: "https://example.com" }] }
      })
      expect(scope.status).toBe(403)
      expect(scope.body).toMatchObject({ error_code: "insufficient_scope" })
      const anonymous = await api.call("POST", "/resources/bulk-create", {
        headers: idem(fresh("k")),
        body: { items: [{ target_url: "https://example.com" }] }
      })
      expect(anonymous.status).toBe(401)
      expect(anonymous.body).toMatchObject({ error_code: "invalid_api_key" })
    })

    it("imports a Bitly export: columns found by name, tags as labels, custom back-halves as slugs, rows numbered", async () => {
      const tag = fresh("bitly")
      const slug = fresh("spring")
      const csv = [
        "id,link,long_url,title,created_at,archived,tags,custom_bitlinks",
        `bit.ly/3xYzAb,https://bit.ly/3xYzAb,https://example.com/spring,"Spring, ""big"" sale",2024-03-01T00:00:00+0000,false,"${tag}, Promo Codes",https://bit.ly/${slug}`,
        `bit.ly/4Qq,https://bit.ly/4Qq,notaurl,Broken,2024-03-02T00:00:00+0000,false,${tag},`,
        ",,,,,,,",
        `bit.ly/5Rr,https://bit.ly/5Rr,https://example.com/multi,"Two`,
        `lines",2024-03-03T00:00:00+0000,true,${tag},`
      ].join("\r\n")
      const response = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { csv, visibility: "unlisted", labels: ["imported"] }
      })
      expect(response.status).toBe(200)
      expect(response.body).toMatchObject({ source: "bitly", created: 2, failed: 1 })
      const items = itemsOf(response.body)
      expect(items.map((i) => [i.row, i.status])).toEqual([
        [2, "created"],
        [3, "failed"],
        [5, "created"]
      ])
      expect(items[0]?.resource).toMatchObject({
        slug,
        title: 'Spring, "big" sale',
        target_url: "https://example.com/spring",
        visibility: "unlisted",
        labels: ["imported", tag, "promo-codes"]
      })
      expect(items[1]).toMatchObject({ error_code: "validation_failed", field: "target_url" })
      // A generated Bitly hash (mixed case) is not kept: the link gets a random slug.
      expect(items[2]?.resource).toMatchObject({ title: "Two\r\nlines", archived: true })
      expect(items[2]?.resource?.slug).toMatch(/^[a-z0-9]{8}$/)
    })

    it("imports a Linktree export sent as text/csv, with the source named in the query", async () => {
      const csv =
        "\uFEFFTitle,URL,Clicks\nMy shop,https://shop.example.com,12\nBlog,https://blog.example.com,3\n"
      const response = await api.call("POST", "/resources/import?source=linktree", {
        key: owner.key,
        headers: idem(fresh("k")),
        text: { contentType: "text/csv", content: csv }
      })
      expect(response.body).toMatchObject({ source: "linktree", created: 2, failed: 0 })
      expect(itemsOf(response.body).map((i) => [i.row, i.resource?.title])).toEqual([
        [2, "My shop"],
        [3, "Blog"]
      ])
    })

    it("replays an import and refuses the key with another file", async () => {
      const key = fresh("k")
      const csv = "Title,URL\nOne,https://example.com/one\n"
      const first = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(key),
        body: { csv }
      })
      const again = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(key),
        body: { csv }
      })
      expect(again.headers.get("idempotent-replayed")).toBe("true")
      expect(again.body).toEqual(first.body)
      const other = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(key),
        body: { csv: `${csv}Two,https://example.com/two\n` }
      })
      expect(other.status).toBe(409)
      expect(other.body).toMatchObject({ error_code: "idempotency_conflict" })
    })

    it("refuses an unreadable file, a file without a URL column and too many rows, whole, with field csv", async () => {
      const unreadable = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { csv: 'Title,URL\n"never closed,https://example.com\n' }
      })
      expect(unreadable.status).toBe(400)
      expect(unreadable.body).toMatchObject({ error_code: "validation_failed", field: "csv" })
      expect(String(unreadable.body.error)).not.toContain("never closed")
      const noUrl = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { csv: "Title,Clicks\nx,1\n" }
      })
      expect(noUrl.body).toMatchObject({ error_code: "validation_failed", field: "csv" })
      const tooMany = await api.call("POST", "/resources/import", {
        key: owner.key,
        headers: idem(fresh("k")),
        body: { csv: `Title,URL\n${"a,https://example.com\n".repeat(1001)}` }
      })
      expect(tooMany.body).toMatchObject({ error_code: "validation_failed", field: "csv" })
      const badSource = await api.call("POST", "/resources/import?source=myspace", {
        key: owner.key,
        headers: idem(fresh("k")),
        text: { contentType: "text/csv", content: "Title,URL\n" }
      })
      expect(badSource.body).toMatchObject({ error_code: "validation_failed", field: "source" })
      const scope = await api.call("POST", "/resources/import", {
        key: readOnly,
        headers: idem(fresh("k")),
        body: { csv: "Title,URL\nx,https://example.com\n" }
      })
      expect(scope.body).toMatchObject({ error_code: "insufficient_scope" })
    })

    it("leaves the hourly link budget of POST /resources unspent", async () => {
      // The suite has created well over 2 links by bulk and import; single creates still have their 2.
      for (let i = 0; i < 2; i++) {
        const one = await api.call("POST", "/resources", {
          key: owner.key,
          body: { type: "link", target_url: "https://example.com" }
        })
        expect(one.status).toBe(201)
      }
      const third = await api.call("POST", "/resources", {
        key: owner.key,
        body: { type: "link", target_url: "https://example.com" }
      })
      expect(third.status).toBe(429)
    })
  })
}
