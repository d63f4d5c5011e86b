// Notion mirrors over real HTTP, the real Notion client against the local fake Notion API: the
// first refresh queued with the create, the page tree and files cached and served at /s/{slug},
// refreshes of the whole mirror and of one page, de-duplication (409), failures (bad token, a page
// gone, rate limits) and retry, and the feature switched off without a token.
import { JobQueue, NotionMirrors, ResourceRepository, scheduleNotionRefreshes } from "@folio/domain"
import { Effect, Option, Redacted } from "effect"
import { resource } from "../storage/fixtures.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import {
  FAKE_NOTION_BLOCKS,
  FAKE_NOTION_PAGES,
  FAKE_NOTION_TOKEN,
  fakeBlock,
  startFakeNotion
} from "../support/fake-notion.js"
import { newWorkspaceKey } from "../support/keys.js"
import { type Json, sharingClientOf } from "../support/sharing-client.js"
import { SHARING_FILE_TARGETS, startSharingApp } from "../support/sharing-app.js"

const P = FAKE_NOTION_PAGES
const SOURCE = `https://www.notion.so/acme/Fixture-page-${P.root.replace(/-/g, "")}`

type Fake = Awaited<ReturnType<typeof startFakeNotion>>

for (const target of SHARING_FILE_TARGETS) {
  describe(`Notion mirrors [${target.db}, ${target.blob}]`, () => {
    let app: RunningApp
    let fake: Fake
    let owner: { key: string; workspaceId: string }
    let readOnly: { key: string; workspaceId: string }
    let close: () => Promise<void> = async () => {}
    const client = () => sharingClientOf(app.origin)
    const call = (method: string, path: string, body?: unknown, key = owner.key) =>
      client().call(method, path, { key, ...(body === undefined ? {} : { body }) })

    /** Polls a job until it is final. */
    const settle = async (jobId: string, timeoutMs = 20_000): Promise<Json> => {
      const until = Date.now() + timeoutMs
      for (;;) {
        const job = await call("GET", `/jobs/${jobId}`)
        expect(job.status).toBe(200)
        if (["succeeded", "failed", "skipped"].includes(job.body.status as string)) return job.body
        if (Date.now() > until) throw new Error(`job ${jobId} still ${String(job.body.status)}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    }
    const latestJob = async (slug: string) => {
      const pages = await call("GET", `/resources/${slug}/notion/pages`)
      return (pages.body.refresh as Json).job_id as string
    }
    const createMirror = async (slug: string, extra: Json = {}) => {
      const created = await call("POST", "/resources", { type: "notion", slug, source_url: SOURCE, ...extra })
      expect(created.status, JSON.stringify(created.body)).toBe(201)
      return created.body
    }

    beforeAll(async () => {
      fake = await startFakeNotion()
      const started = await startSharingApp(target, {
        notionToken: Option.some(Redacted.make(FAKE_NOTION_TOKEN)),
        notionApiUrl: fake.baseUrl
      })
      app = started.app
      close = async () => {
        await started.close()
        await fake.close()
      }
      owner = await newWorkspaceKey(app, ["read", "write", "delete"], "sharing")
      readOnly = await newWorkspaceKey(app, ["read"], "sharing")
    }, 60_000)
    afterAll(() => close())

    it("queues the first refresh with the create, then mirrors the page tree and its files", async () => {
      await createMirror(`mirror-${target.blob}`, { title: "Handbook" })
      const slug = `mirror-${target.blob}`
      const jobs = await call("GET", "/jobs?type=notion_refresh")
      const first = (jobs.body.items as Array<Json>).find((j) => j.resource_id !== null)
      expect(first?.type).toBe("notion_refresh")
      const done = await settle(await latestJob(slug))
      expect(done.status, JSON.stringify(done)).toBe("succeeded")
      expect(done.attempts).toBe(1)
      expect(done.result).toMatchObject({ pages: 4, assets: 2, pages_left_out: 0 })
      expect(done.retry_after_seconds).toBeNull()

      const pages = await call("GET", `/resources/${slug}/notion/pages`)
      expect(pages.status).toBe(200)
      const list = pages.body.pages as Array<Json>
      expect(list.map((p) => p.page_id)).toEqual([P.root, P.child, P.second, P.grandchild])
      expect(list.map((p) => p.depth)).toEqual([0, 1, 1, 2])
      expect(list[3]?.parent_page_id).toBe(P.child)
      expect(pages.body.refresh).toMatchObject({ status: "succeeded", error: null })
      expect(typeof (pages.body.refresh as Json).last_refreshed_at).toBe("string")

      const root = await call("GET", `/resources/${slug}/notion/pages/${P.root}`)
      expect(root.status).toBe(200)
      const html = root.body.html as string
      expect(html).toContain("<strong>bold</strong>")
      expect(html).toContain(
        '<a href="https://example.com/docs" rel="noopener noreferrer nofollow">a link</a>'
      )
      expect(html).toContain('class="language-typescript"')
      expect(html).toContain("<details>")
      expect(html).not.toContain(fake.baseUrl) // hosted files are served from our copy, never Notion's URL

      const assets = await call("GET", `/resources/${slug}/notion/assets`)
      const items = assets.body.items as Array<Json>
      expect(items.map((a) => a.block_id).sort()).toEqual(
        [FAKE_NOTION_BLOCKS.hostedImage, FAKE_NOTION_BLOCKS.hostedFile].sort()
      )
      const image = items.find((a) => a.block_id === FAKE_NOTION_BLOCKS.hostedImage) as Json
      expect(image.content_type).toBe("image/png")
      expect(html).toContain(new URL(image.url as string).pathname)
      const bytes = new Uint8Array(await (await fetch(image.url as string)).arrayBuffer())
      expect(Buffer.from(bytes).equals(Buffer.from(fake.catPng))).toBe(true)

      // The mirror's stored bytes are its files', in /me too.
      const resource = await call("GET", `/resources/${slug}`)
      expect(resource.status).toBe(200)
      const stored = await app.run(
        Effect.flatMap(ResourceRepository, (repo) => repo.getBySlug(owner.workspaceId, slug))
      )
      const expected = items.reduce((n, a) => n + (a.size as number), 0)
      expect(Option.getOrThrow(stored).storedBytes).toBe(expected)

      // The public page: the root with the tree as navigation, a child page by ?page=.
      const publicRoot = await fetch(`${app.origin}/s/${slug}`)
      expect(publicRoot.status).toBe(200)
      const rootHtml = await publicRoot.text()
      expect(rootHtml).toContain("Handbook")
      expect(rootHtml).toContain('class="notion-nav"')
      expect(rootHtml).toContain(`/s/${slug}?page=${P.grandchild}`)
      expect(rootHtml).toContain("<strong>bold</strong>")
      const child = await fetch(`${app.origin}/s/${slug}?page=${P.child}`)
      expect(child.status).toBe(200)
      expect(await child.text()).toContain('aria-current="page"')
      expect((await fetch(`${app.origin}/s/${slug}?page=${"f".repeat(32)}`)).status).toBe(404)
    })

    it("refreshes on request (202 with a poll URL), refuses the same work twice (409), and one page alone", async () => {
      const slug = `again-${target.blob}`
      await createMirror(slug)
      await settle(await latestJob(slug))
      // Held on its first request to Notion, the refresh stays active: a second is 409.
      const held = fake.hold()
      const queued = await call("POST", `/resources/${slug}/notion/refresh`, {})
      expect(queued.status, JSON.stringify(queued.body)).toBe(202)
      expect(queued.body.poll_url).toBe(`${app.origin}/share/api/v1/jobs/${queued.body.job_id}`)
      expect(queued.body.retry_after_seconds).toBeGreaterThanOrEqual(1)
      await held.reached
      const twice = await call("POST", `/resources/${slug}/notion/refresh`, { page_id: P.child })
      expect(twice.status).toBe(409)
      expect(twice.body.error_code).toBe("job_already_active")
      fake.setPageTitle(P.root, "Renamed root")
      held.release()
      expect((await settle(queued.body.job_id as string)).status).toBe("succeeded")
      const root = await call("GET", `/resources/${slug}/notion/pages/${P.root}`)
      expect(root.body.title).toBe("Renamed root")

      // One page: only it is fetched again.
      fake.setBlocks(P.second, [fakeBlock.paragraph(["Second page, edited"])])
      fake.clearRequests()
      const one = await call("POST", `/resources/${slug}/notion/refresh`, { page_id: P.second })
      expect(one.status).toBe(202)
      const done = await settle(one.body.job_id as string)
      expect(done.result).toMatchObject({ pages: 1, page_id: P.second })
      expect(fake.requests.every((r) => !r.path.includes(P.root))).toBe(true)
      const second = await call("GET", `/resources/${slug}/notion/pages/${P.second}`)
      expect(second.body.html).toContain("Second page, edited")
      const pages = await call("GET", `/resources/${slug}/notion/pages`)
      expect((pages.body.pages as Array<Json>).length).toBe(4)

      const unknown = await call("POST", `/resources/${slug}/notion/refresh`, { page_id: "f".repeat(32) })
      expect(unknown.status).toBe(400)
      expect(unknown.body.field).toBe("page_id")
      fake.setPageTitle(P.root, "Fixture page")
    })

    it("fails without retrying on a bad token, retries a rate limit, and reruns a failed job as a new one", async () => {
      const slug = `fails-${target.blob}`
      await createMirror(slug)
      await settle(await latestJob(slug))
      fake.setToken("another-token")
      const refused = await call("POST", `/resources/${slug}/notion/refresh`, {})
      const failed = await settle(refused.body.job_id as string)
      expect(failed.status).toBe("failed")
      expect(failed.attempts).toBe(1)
      expect(failed.error).toMatchObject({ code: "notion_unauthorized" })
      expect(JSON.stringify(failed)).not.toContain("another-token")
      const state = await call("GET", `/resources/${slug}/notion/pages`)
      expect(state.body.refresh).toMatchObject({ status: "failed", error: { code: "notion_unauthorized" } })
      // The cached pages stay served while the source is unreachable.
      expect((state.body.pages as Array<Json>).length).toBe(4)

      fake.setToken(FAKE_NOTION_TOKEN)
      // Rate limited past the client's own retries: the job is retried after its backoff.
      fake.failNext(429, 4, { "retry-after": "0" })
      const retried = await call("POST", `/jobs/${refused.body.job_id}/retry`)
      expect(retried.status, JSON.stringify(retried.body)).toBe(202)
      expect(retried.body.job_id).not.toBe(refused.body.job_id)
      const after = await settle(retried.body.job_id as string)
      expect(after.status).toBe("succeeded")
      expect(after.attempts).toBe(2)
      expect(after.retry_of).toBe(refused.body.job_id)

      const notRetryable = await call("POST", `/jobs/${retried.body.job_id}/retry`)
      expect(notRetryable.status).toBe(400)
      expect(notRetryable.body.error_code).toBe("validation_failed")
    })

    it("fails a refresh of a page Notion no longer has, and skips the job of a deleted mirror", async () => {
      const slug = `gone-${target.blob}`
      await createMirror(slug, { root_page_id: P.second })
      await settle(await latestJob(slug))
      fake.removePage(P.second)
      const refresh = await call("POST", `/resources/${slug}/notion/refresh`, {})
      const failed = await settle(refresh.body.job_id as string)
      expect(failed.status).toBe("failed")
      expect(failed.error).toMatchObject({ code: "notion_page_not_found" })
      fake.addPage(P.second, "Second page", { parentId: P.root })

      const held = fake.hold()
      const again = await call("POST", `/resources/${slug}/notion/refresh`, {})
      await held.reached
      expect((await call("DELETE", `/resources/${slug}`)).status).toBe(204)
      held.release()
      const skipped = await settle(again.body.job_id as string)
      expect(skipped.status).toBe("skipped")
      expect(skipped.result).toMatchObject({ reason: "resource_deleted" })
    })

    it("pages the job list with a cursor, filters it, and keeps jobs to their account and scopes", async () => {
      const all: Array<string> = []
      let cursor: string | null = null
      do {
        const page: { status: number; body: Json } = await call(
          "GET",
          `/jobs?limit=2${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`
        )
        expect(page.status).toBe(200)
        all.push(...(page.body.items as Array<Json>).map((j) => j.job_id as string))
        cursor = page.body.next_cursor as string | null
      } while (cursor !== null)
      expect(all.length).toBeGreaterThanOrEqual(6)
      expect(new Set(all).size).toBe(all.length)
      const failed = await call("GET", "/jobs?status=failed")
      expect((failed.body.items as Array<Json>).every((j) => j.status === "failed")).toBe(true)
      expect((await call("GET", "/jobs?status=nope")).status).toBe(400)
      expect((await call("GET", "/jobs?cursor=bogus")).body.field).toBe("cursor")

      const otherAccount = await newWorkspaceKey(app, ["read", "write"], "sharing")
      expect((await call("GET", `/jobs/${all[0]}`, undefined, otherAccount.key)).status).toBe(404)
      expect((await call("POST", `/jobs/${all[0]}/retry`, undefined, otherAccount.key)).status).toBe(404)
      const slug = `mirror-${target.blob}`
      const forbidden = await call("POST", `/resources/${slug}/notion/refresh`, {}, otherAccount.key)
      expect(forbidden.status).toBe(403)
      const noScope = await call("POST", `/resources/${slug}/notion/refresh`, {}, readOnly.key)
      expect(noScope.body.error_code).toBe("insufficient_scope")
      const link = await call("POST", "/resources", { type: "link", target_url: "https://example.com" })
      const notMirror = await call("GET", `/resources/${link.body.slug}/notion/pages`)
      expect(notMirror.status).toBe(400)
    })

    it("queues an auto-refresh once its interval has passed, once however many instances look", async () => {
      const slug = `auto-${target.blob}`
      const created = await createMirror(slug, { auto_refresh: true, refresh_interval_seconds: 60 })
      expect(created.refresh_interval_seconds).toBe(60)
      await settle(await latestJob(slug))
      const first = await latestJob(slug)
      /** Every instance's scheduler, with the mirror's last refresh `ago` ms in the past. */
      const scheduleWithLastRefresh = (ago: number) =>
        app.run(
          Effect.gen(function* () {
            yield* (yield* NotionMirrors).markAttempt(
              owner.workspaceId,
              created.id as string,
              new Date(Date.now() - ago)
            )
            return yield* scheduleNotionRefreshes
          })
        )
      expect(await scheduleWithLastRefresh(30_000)).toBe(0)
      expect(await latestJob(slug)).toBe(first)
      // Several instances' schedulers at once: the queue keeps one refresh per mirror.
      // Several instances' schedulers at once: the queue keeps one refresh per mirror.
      const queued = await Promise.all([
        scheduleWithLastRefresh(61_000),
        scheduleWithLastRefresh(61_000),
        scheduleWithLastRefresh(61_000)
      ])
      const ours = await latestJob(slug)
      expect(ours).not.toBe(first)
      // (the app's own scheduler may have been the one to queue it)
      expect(queued.reduce((n, q) => n + q, 0)).toBeLessThanOrEqual(1)
      const done = await settle(ours)
      expect(done.status).toBe("succeeded")
      const refreshes = await call("GET", "/jobs?type=notion_refresh&limit=200")
      const forThis = (refreshes.body.items as Array<Json>).filter((j) => j.resource_id === created.id)
      expect(forThis.length).toBe(2)
    })

    it("creates nothing when the first refresh cannot be queued", async () => {
      const outcome = await app.run(
        Effect.gen(function* () {
          const queue = yield* JobQueue
          const repo = yield* ResourceRepository
          const existing = (yield* queue.list(owner.workspaceId, { limit: 1 })).items[0]
          if (existing === undefined) return "no job to collide with"
          const r = resource(owner.workspaceId, "notion", { slug: `orphan-${target.blob}` })
          // A job whose id is taken: its insert fails inside the create's transaction.
          const failed = yield* repo
            .insert(r, {
              enqueue: {
                id: existing.id,
                tenantId: owner.workspaceId,
                type: "notion_refresh",
                resourceId: r.id,
                dedupeKey: `notion_refresh:${r.id}`,
                payload: {},
                maxAttempts: 5,
                runAt: new Date(),
                retryOf: null,
                createdAt: new Date()
              }
            })
            .pipe(
              Effect.as(false),
              Effect.catch(() => Effect.succeed(true))
            )
          return { failed, after: Option.isSome(yield* repo.getBySlug(owner.workspaceId, r.slug)) }
        })
      )
      expect(outcome).toEqual({ failed: true, after: false })
    })

    it("drops the pages and files a refresh no longer finds", async () => {
      const slug = `trim-${target.blob}`
      await createMirror(slug, { root_page_id: P.child })
      await settle(await latestJob(slug))
      const before = await call("GET", `/resources/${slug}/notion/assets`)
      fake.setBlocks(P.child, [fakeBlock.paragraph(["No more files here"])])
      const refresh = await call("POST", `/resources/${slug}/notion/refresh`, {})
      expect((await settle(refresh.body.job_id as string)).status).toBe("succeeded")
      const after = await call("GET", `/resources/${slug}/notion/assets`)
      expect((after.body.items as Array<Json>).length).toBeLessThanOrEqual(
        (before.body.items as Array<Json>).length
      )
      const pages = await app.run(
        Effect.gen(function* () {
          const r = Option.getOrThrow(yield* (yield* ResourceRepository).getBySlug(owner.workspaceId, slug))
          return yield* (yield* NotionMirrors).pages(owner.workspaceId, r.id)
        })
      )
      // The grandchild is no longer linked from the page: it left the mirror.
      expect(pages.map((p) => p.pageId)).toEqual([P.child])
    })
  })
}

describe("Notion mirrors without a token", () => {
  let app: RunningApp
  let close: () => Promise<void> = async () => {}
  beforeAll(async () => {
    const started = await startSharingApp({ db: "pglite", blob: "fs" }, { notionToken: Option.none() })
    app = started.app
    close = started.close
  }, 60_000)
  afterAll(() => close())

  it("says so in /me and refuses to create a mirror (403 feature_disabled), writing nothing", async () => {
    const owner = await newWorkspaceKey(app, ["read", "write"], "sharing")
    const api = sharingClientOf(app.origin)
    const me = await api.call("GET", "/me", { key: owner.key })
    expect((me.body.features as Json).notion_enabled).toBe(false)
    expect(me.body.creatable_types).not.toContain("notion")
    const refused = await api.call("POST", "/resources", {
      key: owner.key,
      body: { type: "notion", slug: "no-token", source_url: SOURCE }
    })
    expect(refused.status).toBe(403)
    expect(refused.body.error_code).toBe("feature_disabled")
    expect((await api.call("GET", "/resources/no-token", { key: owner.key })).status).toBe(404)
    expect(((await api.call("GET", "/jobs", { key: owner.key })).body.items as Array<Json>).length).toBe(0)
  })
})
