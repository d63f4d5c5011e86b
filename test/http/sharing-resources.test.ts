// The sharing resource routes over real HTTP: create, read, list, patch, delete (on memory, PGlite
// and PostgreSQL), Markdown versions, link simulation and QR codes (on memory), each with its
// error codes, scopes and ownership (another account's slug is 403, an unknown or deleted one 404).
import { PasswordHasher, ResourceRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import jsQRModule from "jsqr"
import { PNG } from "pngjs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { type Json, SHARING_API, type SharingClient, sharingClientOf } from "../support/sharing-client.js"
import { startAppOn, storageTargets } from "../support/storage.js"

type JsQR = (typeof jsQRModule)["default"]
const jsQR: JsQR = (jsQRModule as unknown as { default?: JsQR }).default ?? (jsQRModule as unknown as JsQR)

const API = SHARING_API
type Client = SharingClient
const clientOf = sharingClientOf

const ALL = ["read", "write", "delete"]

for (const target of storageTargets()) {
  describe.skipIf(target.skip)(`sharing resources CRUD [${target.name}]`, () => {
    let started: Awaited<ReturnType<typeof startAppOn>>
    let api: Client
    let owner: string
    let other: string
    let readOnly: string
    let writeOnly: string

    beforeAll(async () => {
      started = await startAppOn(target.name, { sharingRequestsPerKey: 100_000 })
      api = clientOf(started.app.origin)
      owner = (await newWorkspaceKey(started.app, ALL, "sharing")).key
      other = (await newWorkspaceKey(started.app, ALL, "sharing")).key
      readOnly = (await newWorkspaceKey(started.app, ["read"], "sharing")).key
      writeOnly = (await newWorkspaceKey(started.app, ["write"], "sharing")).key
    }, 60_000)
    afterAll(async () => started?.close())

    it("creates a link with the common fields and answers 201 with the GET body and its ETag", async () => {
      const created = await api.call("POST", "/resources", {
        key: owner,
        body: {
          type: "link",
          slug: `launch-${target.name}`,
          title: "Launch",
          description: "The launch page",
          visibility: "unlisted",
          password: "open sesame",
          starts_at: "2025-01-01T00:00:00Z",
          expires_at: "2099-01-01T00:00:00Z",
          labels: ["promo", "q3", "promo"],
          target_url: "https://example.com/launch",
          max_views: 10,
          redirect_rules: [{ conditions: { device: ["mobile"] }, target_url: "https://m.example.com" }],
          test_variants: [{ url: "https://a.example.com", weight: 1 }],
          fallback_url: "https://example.com/over",
          og_title: "Launch!"
        }
      })
      expect(created.status).toBe(201)
      expect(created.body).toMatchObject({
        type: "link",
        slug: `launch-${target.name}`,
        url: `${started.app.origin}/s/launch-${target.name}`,
        title: "Launch",
        visibility: "unlisted",
        has_password: true,
        labels: ["promo", "q3"],
        target_url: "https://example.com/launch",
        max_views: 10,
        starts_at: "2025-01-01T00:00:00.000Z",
        og_title: "Launch!",
        webhook_clicks: false
      })
      expect(created.body).not.toHaveProperty("password")
      expect(JSON.stringify(created.body)).not.toContain("open sesame")
      const etag = created.headers.get("x-resource-etag")
      expect(etag).toMatch(/^[0-9a-f]{32}$/)

      const read = await api.call("GET", `/resources/launch-${target.name}`, { key: owner })
      expect(read.status).toBe(200)
      expect(read.body).toEqual(created.body)
      expect(read.headers.get("x-resource-etag")).toBe(etag)

      // The password is stored as a slow hash that verifies, never as itself.
      const stored = await started.app.run(
        Effect.gen(function* () {
          const repo = yield* ResourceRepository
          const record = yield* repo.getBySlugAnyTenant(`launch-${target.name}`)
          const hash = Option.getOrThrow(record).passwordHash ?? ""
          const hasher = yield* PasswordHasher
          return {
            hash,
            ok: yield* hasher.verify("open sesame", hash),
            bad: yield* hasher.verify("nope", hash)
          }
        })
      )
      expect(stored.hash).toMatch(/^scrypt\$/)
      // The app's hasher is the one AppOverrides.passwordHashing gave it (startApp's test cost).
      expect(stored.hash).toMatch(/^scrypt\$1024\$8\$1\$/)
      expect([stored.ok, stored.bad]).toEqual([true, false])
    })

    it("creates each JSON type, with a random 8-character slug when none is given", async () => {
      const bodies = [
        { type: "markdown", body_markdown: "# Hello" },
        { type: "markdown", raw_markdown: "raw *text*" },
        { type: "collection", layout: "grid", settings: { columns: 3 } },
        {
          type: "notion",
          source_url: "https://www.notion.so/acme/Page-0123456789abcdef0123456789abcdef",
          auto_refresh: true
        },
        { type: "notion", fetch_url: "https://acme.notion.site/Other-0123456789abcdef0123456789abcde0" },
        { type: "bio", theme: "dark", settings: { display_name: "Ada", headline: "hi", bio: "..." } }
      ]
      for (const body of bodies) {
        const created = await api.call("POST", "/resources", { key: owner, body })
        expect(created.status, JSON.stringify(created.body)).toBe(201)
        expect(created.body.slug).toMatch(/^[a-z2-9]{8}$/)
        expect(created.body.type).toBe(body.type)
      }
      const md = await api.call("POST", "/resources", {
        key: owner,
        body: { type: "markdown", raw_markdown: "x" }
      })
      expect(md.body.body_markdown).toBe("x")
      const notion = await api.call("POST", "/resources", {
        key: owner,
        body: { type: "notion", fetch_url: "https://notion.so/F-0123456789abcdef0123456789abcde1" }
      })
      expect(notion.body.source_url).toBe("https://notion.so/F-0123456789abcdef0123456789abcde1")
    })

    it("refuses bad creates with validation_failed naming the field", async () => {
      const cases: Array<[unknown, string | undefined]> = [
        [{ type: "link", target_url: "javascript:alert(1)" }, "target_url"],
        [{ type: "link", target_url: "https://x.example", slug: "No Caps" }, "slug"],
        [{ type: "link", target_url: "https://x.example", slug: "ab" }, "slug"],
        [
          {
            type: "link",
            target_url: "https://x.example",
            starts_at: "2030-01-01T00:00:00Z",
            expires_at: "2029-01-01T00:00:00Z"
          },
          "expires_at"
        ],
        [{ type: "link", target_url: "https://x.example", labels: ["Bad Label"] }, "labels.0"],
        [
          {
            type: "link",
            target_url: "https://x.example",
            labels: Array.from({ length: 21 }, (_, i) => `l${i}`)
          },
          "labels"
        ],
        [{ type: "markdown" }, "body_markdown"],
        [{ type: "link", target_url: "https://x.example", body_markdown: "x" }, "body_markdown"],
        [{ type: "page", target_url: "https://x.example" }, undefined],
        [{ type: "link", target_url: "https://x.example", max_views: 0 }, "max_views"],
        [{ type: "markdown", body_markdown: "a", raw_markdown: "b" }, "raw_markdown"],
        [{ type: "notion" }, "source_url"],
        [{ type: "notion", source_url: "https://notion.so/no-page-id" }, "source_url"],
        [{ type: "notion", source_url: "https://example.com/x", root_page_id: "nope" }, "root_page_id"],
        [{ type: "link", target_url: "https://x.example", visibility: "secret" }, "visibility"],
        [
          {
            type: "link",
            target_url: "https://x.example",
            redirect_rules: [{ conditions: {}, target_url: "https://y.example" }]
          },
          "redirect_rules.0.conditions"
        ],
        [
          {
            type: "link",
            target_url: "https://x.example",
            test_variants: [{ url: "https://a.example", weight: 0 }]
          },
          "test_variants.0.weight"
        ]
      ]
      for (const [body, field] of cases) {
        const answer = await api.call("POST", "/resources", { key: owner, body })
        expect(answer.status, JSON.stringify(body)).toBe(400)
        expect(answer.body.error_code).toBe("validation_failed")
        if (field !== undefined) expect(answer.body.field, JSON.stringify(body)).toBe(field)
      }
      const notJson = await fetch(`${started.app.origin}${API}/resources`, {
        method: "POST",
        headers: { ...bearer(owner), "content-type": "application/json" },
        body: "{"
      })
      expect(notJson.status).toBe(400)
      expect(((await notJson.json()) as Json).error_code).toBe("request_body_invalid")
    })

    it("answers slug_taken for a slug in use by any account, and frees it on delete", async () => {
      const body = { type: "link", slug: `taken-${target.name}`, target_url: "https://x.example" }
      expect((await api.call("POST", "/resources", { key: owner, body })).status).toBe(201)
      const again = await api.call("POST", "/resources", { key: other, body })
      expect(again.status).toBe(409)
      expect(again.body).toMatchObject({ error_code: "slug_taken", field: "slug" })
      expect((await api.call("DELETE", `/resources/taken-${target.name}`, { key: owner })).status).toBe(204)
      expect((await api.call("POST", "/resources", { key: other, body })).status).toBe(201)
    })

    it("tells another account's slug (403 forbidden) from an unknown or deleted one (404)", async () => {
      const slug = `mine-${target.name}`
      await api.call("POST", "/resources", {
        key: owner,
        body: { type: "link", slug, target_url: "https://x.example" }
      })
      for (const [method, body] of [
        ["GET", undefined],
        ["PATCH", { title: "x" }],
        ["DELETE", undefined]
      ] as const) {
        const foreign = await api.call(method, `/resources/${slug}`, { key: other, body })
        expect(foreign.status, method).toBe(403)
        expect(foreign.body.error_code).toBe("forbidden")
        const unknown = await api.call(method, "/resources/no-such-slug", { key: owner, body })
        expect(unknown.status, method).toBe(404)
        expect(unknown.body.error_code).toBe("not_found")
      }
      expect((await api.call("DELETE", `/resources/${slug}`, { key: owner })).status).toBe(204)
      expect((await api.call("GET", `/resources/${slug}`, { key: owner })).status).toBe(404)
      expect((await api.call("DELETE", `/resources/${slug}`, { key: owner })).status).toBe(404)
    })

    it("holds each route to its own scope", async () => {
      const slug = `scoped-${target.name}`
      await api.call("POST", "/resources", {
        key: owner,
        body: { type: "link", slug, target_url: "https://x.example" }
      })
      const refused: Array<[string, string, string, unknown]> = [
        [readOnly, "POST", "/resources", { type: "link", target_url: "https://x.example" }],
        [readOnly, "PATCH", `/resources/${slug}`, { title: "x" }],
        [readOnly, "DELETE", `/resources/${slug}`, undefined],
        [writeOnly, "GET", `/resources/${slug}`, undefined],
        [writeOnly, "GET", "/resources", undefined],
        [writeOnly, "DELETE", `/resources/${slug}`, undefined],
        [writeOnly, "POST", "/links/simulate", { target_url: "https://x.example" }]
      ]
      for (const [key, method, path, body] of refused) {
        const answer = await api.call(method, path, { key, body })
        expect(answer.status, `${method} ${path}`).toBe(403)
        expect(answer.body.error_code).toBe("insufficient_scope")
      }
      expect((await api.call("GET", `/resources/${slug}`, { key: "folio_nope" })).body.error_code).toBe(
        "invalid_api_key"
      )
    })

    it("patches only the fields sent, checks the ETag, keeps visibility, and renames", async () => {
      const slug = `patch-${target.name}`
      const created = await api.call("POST", "/resources", {
        key: owner,
        body: {
          type: "link",
          slug,
          title: "Old",
          description: "keep me",
          target_url: "https://x.example",
          password: "pw"
        }
      })
      const etag = created.headers.get("x-resource-etag") ?? ""
      const patched = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        headers: { "x-resource-if-match": etag },
        body: { title: "New", labels: ["a"] }
      })
      expect(patched.status).toBe(200)
      expect(patched.body).toMatchObject({
        title: "New",
        description: "keep me",
        labels: ["a"],
        has_password: true
      })
      const next = patched.headers.get("x-resource-etag")
      expect(next).not.toBe(etag)

      const stale = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        headers: { "x-resource-if-match": etag },
        body: { title: "Lost" }
      })
      expect(stale.status).toBe(412)
      expect(stale.body.error_code).toBe("etag_mismatch")
      const staleStd = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        headers: { "if-match": `"${etag}"` },
        body: { title: "Lost" }
      })
      expect(staleStd.status).toBe(412)
      const std = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        headers: { "if-match": `"${next}"` },
        body: { password: null }
      })
      expect(std.status).toBe(200)
      expect(std.body.has_password).toBe(false)

      const visibility = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        body: { visibility: "private" }
      })
      expect(visibility.status).toBe(400)
      expect(visibility.body).toMatchObject({ error_code: "validation_failed", field: "visibility" })
      const foreignField = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        body: { body_markdown: "x" }
      })
      expect(foreignField.body).toMatchObject({ error_code: "validation_failed", field: "body_markdown" })
      const window = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        body: { starts_at: "2030-01-01T00:00:00Z", expires_at: "2030-01-01T00:00:00Z" }
      })
      expect(window.body).toMatchObject({ error_code: "validation_failed", field: "expires_at" })

      const renamed = await api.call("PATCH", `/resources/${slug}`, {
        key: owner,
        body: { slug: `${slug}-2` }
      })
      expect(renamed.status).toBe(200)
      expect(renamed.body).toMatchObject({ slug: `${slug}-2`, url: `${started.app.origin}/s/${slug}-2` })
      expect((await api.call("GET", `/resources/${slug}`, { key: owner })).status).toBe(404)
      const taken = `taken2-${target.name}`
      await api.call("POST", "/resources", {
        key: other,
        body: { type: "link", slug: taken, target_url: "https://x.example" }
      })
      const clash = await api.call("PATCH", `/resources/${slug}-2`, { key: owner, body: { slug: taken } })
      expect(clash.status).toBe(409)
      expect(clash.body.error_code).toBe("slug_taken")
    })

    it("lets one of two racing PATCHes with the same ETag win, the other 412", async () => {
      const slug = `race-${target.name}`
      const created = await api.call("POST", "/resources", {
        key: owner,
        body: { type: "link", slug, target_url: "https://x.example" }
      })
      const etag = created.headers.get("x-resource-etag") ?? ""
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          api.call("PATCH", `/resources/${slug}`, {
            key: owner,
            headers: { "x-resource-if-match": etag },
            body: { title: `t${i}` }
          })
        )
      )
      expect(answers.map((a) => a.status).sort()).toEqual([200, 412, 412, 412, 412, 412])
    })

    it("lists with filters, sorts and both kinds of paging, flat as { items, next_cursor }", async () => {
      const lister = (await newWorkspaceKey(started.app, ALL, "sharing")).key
      for (let i = 0; i < 5; i++) {
        await api.call("POST", "/resources", {
          key: lister,
          body: {
            type: i % 2 === 0 ? "link" : "markdown",
            ...(i % 2 === 0 ? { target_url: "https://x.example" } : { body_markdown: `body ${i}` }),
            title: `Item ${i}`,
            labels: i < 2 ? ["hot"] : [],
            pinned: i === 4,
            archived: i === 3
          }
        })
      }
      // Titled in creation order; created_asc ties within one millisecond break on a random id part.
      const all = await api.call("GET", "/resources?sort=title_asc", { key: lister })
      expect(all.status).toBe(200)
      expect(Object.keys(all.body).sort()).toEqual(["items", "next_cursor"])
      const items = all.body.items as Array<Json>
      expect(items.map((r) => r.title)).toEqual(["Item 0", "Item 1", "Item 2", "Item 3", "Item 4"])
      expect(items[1]).not.toHaveProperty("body_markdown")
      expect(all.body.next_cursor).toBeNull()

      const titles = async (query: string) =>
        ((await api.call("GET", `/resources?${query}`, { key: lister })).body.items as Array<Json>).map(
          (r) => r.title
        )
      expect(await titles("type=markdown&sort=title_asc")).toEqual(["Item 1", "Item 3"])
      expect(await titles("label=hot&sort=title_asc")).toEqual(["Item 0", "Item 1"])
      expect(await titles("archived=true")).toEqual(["Item 3"])
      expect(await titles("pinned=true")).toEqual(["Item 4"])
      expect(await titles("q=item%202")).toEqual(["Item 2"])
      expect(await titles("sort=title_desc&limit=2")).toEqual(["Item 4", "Item 3"])
      expect(await titles("sort=title_asc&limit=2&offset=2")).toEqual(["Item 2", "Item 3"])

      const first = await api.call("GET", "/resources?sort=title_asc&limit=2", { key: lister })
      const cursor = first.body.next_cursor as string
      expect(typeof cursor).toBe("string")
      expect(await titles(`sort=title_asc&limit=2&cursor=${encodeURIComponent(cursor)}`)).toEqual([
        "Item 2",
        "Item 3"
      ])
      const bad = await api.call("GET", "/resources?cursor=bogus", { key: lister })
      expect(bad.status).toBe(400)
      expect(bad.body).toMatchObject({ error_code: "validation_failed", field: "cursor" })
      const badLimit = await api.call("GET", "/resources?limit=0", { key: lister })
      expect(badLimit.body).toMatchObject({ error_code: "validation_failed", field: "limit" })
      const badSort = await api.call("GET", "/resources?sort=random", { key: lister })
      expect(badSort.body).toMatchObject({ error_code: "validation_failed", field: "sort" })
      // Another account's resources never appear.
      expect(
        ((await api.call("GET", "/resources", { key: other })).body.items as Array<Json>).some((r) =>
          String(r.title).startsWith("Item")
        )
      ).toBe(false)
    })

    it("saves a Markdown page's old body as a version on change, lists, reads and restores it (undoably)", async () => {
      const slug = `page-${target.name}`
      await api.call("POST", "/resources", {
        key: owner,
        body: { type: "markdown", slug, body_markdown: "v1" }
      })
      await api.call("PATCH", `/resources/${slug}`, { key: owner, body: { body_markdown: "v2" } })
      await api.call("PATCH", `/resources/${slug}`, { key: owner, body: { title: "no body change" } })
      const listed = await api.call("GET", `/resources/${slug}/markdown/versions`, { key: owner })
      expect(listed.status).toBe(200)
      const versions = listed.body.items as Array<Json>
      expect(versions).toHaveLength(1)
      expect(versions[0]).toMatchObject({ number: 1, size: 2 })
      const one = await api.call("GET", `/resources/${slug}/markdown/versions/${versions[0]?.id}`, {
        key: owner
      })
      expect(one.body).toMatchObject({ body_markdown: "v1", number: 1 })

      const current = await api.call("GET", `/resources/${slug}`, { key: owner })
      const staleRestore = await api.call(
        "POST",
        `/resources/${slug}/markdown/versions/${versions[0]?.id}/restore`,
        {
          key: owner,
          headers: { "x-resource-if-match": "0".repeat(32) }
        }
      )
      expect(staleRestore.status).toBe(412)
      const restored = await api.call(
        "POST",
        `/resources/${slug}/markdown/versions/${versions[0]?.id}/restore`,
        {
          key: owner,
          headers: { "x-resource-if-match": current.headers.get("x-resource-etag") ?? "" }
        }
      )
      expect(restored.status).toBe(200)
      expect(restored.body).toMatchObject({ resource: { body_markdown: "v1" }, saved_version: { number: 2 } })
      const saved = (restored.body.saved_version as Json).id
      const undone = await api.call("POST", `/resources/${slug}/markdown/versions/${saved}/restore`, {
        key: owner
      })
      expect(undone.body).toMatchObject({ resource: { body_markdown: "v2" } })

      const missing = await api.call(
        "GET",
        `/resources/${slug}/markdown/versions/0190a000-0000-7000-8000-000000000000`,
        {
          key: owner
        }
      )
      expect(missing.status).toBe(404)
      const foreign = await api.call("GET", `/resources/${slug}/markdown/versions`, { key: other })
      expect(foreign.status).toBe(403)
      const scope = await api.call("POST", `/resources/${slug}/markdown/versions/${saved}/restore`, {
        key: readOnly
      })
      expect(scope.body.error_code).toBe("insufficient_scope")
      const link = await api.call("POST", "/resources", {
        key: owner,
        body: { type: "link", target_url: "https://x.example" }
      })
      expect(
        (await api.call("GET", `/resources/${link.body.slug}/markdown/versions`, { key: owner })).status
      ).toBe(404)
    })
  })
}

describe("sharing resources on memory: limits, simulation, QR, invalidation", () => {
  let started: Awaited<ReturnType<typeof startAppOn>>
  let api: Client
  let owner: string
  let other: string

  beforeAll(async () => {
    started = await startAppOn("memory", { sharingRequestsPerKey: 100_000 })
    api = clientOf(started.app.origin)
    owner = (await newWorkspaceKey(started.app, ALL, "sharing")).key
    other = (await newWorkspaceKey(started.app, ALL, "sharing")).key
  })
  afterAll(async () => started?.close())

  it("allows 60 link creations an hour per key, then 429 rate_limited with Retry-After (other types go on)", async () => {
    const key = (await newWorkspaceKey(started.app, ALL, "sharing")).key
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        api.call("POST", "/resources", { key, body: { type: "link", target_url: "https://x.example" } })
      )
    )
    expect(answers.every((a) => a.status === 201)).toBe(true)
    const over = await api.call("POST", "/resources", {
      key,
      body: { type: "link", target_url: "https://x.example" }
    })
    expect(over.status).toBe(429)
    expect(over.body.error_code).toBe("rate_limited")
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(Number(over.headers.get("retry-after"))).toBeLessThanOrEqual(3600)
    const page = await api.call("POST", "/resources", { key, body: { type: "markdown", body_markdown: "x" } })
    expect(page.status).toBe(201)
  })

  it("takes the link budget from configuration (SHARING_LINK_CREATIONS_PER_HOUR)", async () => {
    const small = await startAppOn("memory", {
      sharingRequestsPerKey: 100_000,
      sharingLinkCreationsPerHour: 2
    })
    try {
      const key = (await newWorkspaceKey(small.app, ALL, "sharing")).key
      const client = clientOf(small.app.origin)
      const statuses: Array<number> = []
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await client.call("POST", "/resources", {
              key,
              body: { type: "link", target_url: "https://x.example" }
            })
          ).status
        )
      expect(statuses).toEqual([201, 201, 429])
    } finally {
      await small.close()
    }
  })

  it("refuses a body over 1 MiB with payload_too_large", async () => {
    const big = await api.call("POST", "/resources", {
      key: owner,
      body: { type: "markdown", body_markdown: "x".repeat(1024 * 1024 + 10) }
    })
    expect(big.status).toBe(413)
    expect(big.body.error_code).toBe("payload_too_large")
  })

  it("simulates an unsaved link: rules, variants, fallback, with nothing stored", async () => {
    const link = {
      target_url: "https://example.com/default",
      redirect_rules: [
        { conditions: { device: ["mobile"] }, target_url: "https://m.example.com" },
        { conditions: { country: ["DE"] }, target_url: "https://de.example.com" }
      ],
      test_variants: [
        { url: "https://a.example.com", weight: 1 },
        { url: "https://b.example.com", weight: 1 }
      ]
    }
    const iphone = await api.call("POST", "/links/simulate", {
      key: owner,
      body: { ...link, visit: { device: "mobile", query: { utm_source: "x" } } }
    })
    expect(iphone.status).toBe(200)
    expect(iphone.body).toEqual({
      destination: "https://m.example.com?utm_source=x",
      matched: { kind: "rule", index: 0 }
    })
    const german = await api.call("POST", "/links/simulate", {
      key: owner,
      body: { ...link, visit: { device: "desktop", country: "DE" } }
    })
    expect(german.body).toMatchObject({ matched: { kind: "rule", index: 1 } })
    const desktop = await api.call("POST", "/links/simulate", {
      key: owner,
      body: { ...link, visit: { device: "desktop", visitor_id: "v1" } }
    })
    expect(desktop.body).toMatchObject({ matched: { kind: "variant" } })
    const again = await api.call("POST", "/links/simulate", {
      key: owner,
      body: { ...link, visit: { device: "desktop", visitor_id: "v1" } }
    })
    expect(again.body).toEqual(desktop.body)
    const expired = await api.call("POST", "/links/simulate", {
      key: owner,
      body: { ...link, expires_at: "2020-01-01T00:00:00Z", fallback_url: "https://example.com/gone" }
    })
    expect(expired.body).toEqual({
      destination: "https://example.com/gone",
      matched: { kind: "fallback", reason: "expired" }
    })
    const noTarget = await api.call("POST", "/links/simulate", { key: owner, body: {} })
    expect(noTarget.body).toMatchObject({ error_code: "validation_failed", field: "target_url" })
    const badRule = await api.call("POST", "/links/simulate", {
      key: owner,
      body: {
        ...link,
        redirect_rules: [{ conditions: { device: ["phone"] }, target_url: "https://x.example" }]
      }
    })
    expect(badRule.body).toMatchObject({ error_code: "validation_failed" })
    expect(String(badRule.body.field)).toMatch(/^redirect_rules\.0\.conditions\.device/)
    const list = await api.call("GET", "/resources", { key: owner })
    expect((list.body.items as Array<Json>).length).toBe(0)
  })

  it("simulates a saved link with omitted fields kept, and counts no view", async () => {
    const created = await api.call("POST", "/resources", {
      key: owner,
      body: {
        type: "link",
        slug: "saved-sim",
        target_url: "https://example.com/t",
        redirect_rules: [{ conditions: { os: ["ios"] }, target_url: "https://apps.example.com" }]
      }
    })
    expect(created.status).toBe(201)
    const ios = await api.call("POST", "/resources/saved-sim/link/simulate", {
      key: owner,
      body: { visit: { os: "ios" } }
    })
    expect(ios.body).toEqual({ destination: "https://apps.example.com", matched: { kind: "rule", index: 0 } })
    const overridden = await api.call("POST", "/resources/saved-sim/link/simulate", {
      key: owner,
      body: { redirect_rules: [], visit: { os: "ios" } }
    })
    expect(overridden.body).toEqual({ destination: "https://example.com/t", matched: { kind: "target" } })
    const view = await api.call("GET", "/resources/saved-sim", { key: owner })
    expect(view.body).toMatchObject({
      view_count: 0,
      redirect_rules: [{ target_url: "https://apps.example.com" }]
    })
    expect(
      (await api.call("POST", "/resources/saved-sim/link/simulate", { key: other, body: {} })).status
    ).toBe(403)
    expect(
      (await api.call("POST", "/resources/nope-nope/link/simulate", { key: owner, body: {} })).status
    ).toBe(404)
    const page = await api.call("POST", "/resources", {
      key: owner,
      body: { type: "markdown", body_markdown: "x" }
    })
    const notLink = await api.call("POST", `/resources/${page.body.slug}/link/simulate`, {
      key: owner,
      body: {}
    })
    expect(notLink.body).toMatchObject({ error_code: "validation_failed", field: "slug" })
  })

  it("draws the QR code of the public URL as PNG (decodable) or SVG", async () => {
    await api.call("POST", "/resources", {
      key: owner,
      body: { type: "link", slug: "qr-me", target_url: "https://x.example" }
    })
    const png = await api.call("GET", "/resources/qr-me/qr?size=256", { key: owner })
    expect(png.status).toBe(200)
    expect(png.headers.get("content-type")).toBe("image/png")
    const image = PNG.sync.read(Buffer.from(png.bytes))
    expect([image.width, image.height]).toEqual([256, 256])
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(
      `${started.app.origin}/s/qr-me`
    )
    const svg = await api.call("GET", "/resources/qr-me/qr?format=svg", { key: owner })
    expect(svg.headers.get("content-type")).toContain("image/svg+xml")
    expect(new TextDecoder().decode(svg.bytes)).toContain("<svg")
    for (const query of ["size=64", "size=4096", "size=300.5", "format=gif"]) {
      const bad = await api.call("GET", `/resources/qr-me/qr?${query}`, { key: owner })
      expect(bad.status, query).toBe(400)
      expect(bad.body.error_code).toBe("validation_failed")
    }
    expect((await api.call("GET", "/resources/qr-me/qr", { key: other })).status).toBe(403)
    expect((await api.call("GET", "/resources/nope-nope/qr", { key: owner })).status).toBe(404)
  })

  it("publishes the slug on the resources topic on every create, update and delete", async () => {
    const { InvalidationBus } = await import("@folio/domain")
    const heard: Array<string> = []
    const { Scope, Exit } = await import("effect")
    const scope = Effect.runSync(Scope.make())
    await started.app.run(
      Effect.flatMap(Effect.service(InvalidationBus), (bus) =>
        bus.subscribe("resources", (key) => Effect.sync(() => heard.push(key)))
      ).pipe(Scope.provide(scope))
    )
    await api.call("POST", "/resources", {
      key: owner,
      body: { type: "link", slug: "bus-me", target_url: "https://x.example" }
    })
    // A create too: an instance may remember the slug as unknown.
    expect(heard).toEqual(["bus-me"])
    await api.call("PATCH", "/resources/bus-me", { key: owner, body: { title: "t" } })
    await api.call("PATCH", "/resources/bus-me", { key: owner, body: { slug: "bus-me-2" } })
    await api.call("DELETE", "/resources/bus-me-2", { key: owner })
    expect(heard).toEqual(["bus-me", "bus-me", "bus-me", "bus-me-2", "bus-me-2"])
    await Effect.runPromise(Scope.close(scope, Exit.void))
  })
})
