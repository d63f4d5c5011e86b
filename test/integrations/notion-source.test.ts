// The Notion adapter (the official client) against a local fake of the Notion API: whole page
// trees read page by page, file downloads with a size cap, and every failure mapped to its reason.
import {
  NOTION_API_VERSION,
  NotionClientSourceLive,
  type NotionClientSourceOptions
} from "@folio/adapters-integrations"
import {
  type NotionBlock,
  type NotionPage,
  NotionSource,
  type NotionSourceService,
  renderNotionBlocks
} from "@folio/domain"
import { Effect, Result } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { type FakeNotion, fakeBlock, startFakeNotion } from "../support/fake-notion.js"

let fake: FakeNotion

beforeAll(async () => {
  fake = await startFakeNotion({ maxPageSize: 5 })
})
afterAll(async () => {
  await fake.close()
})
beforeEach(() => {
  fake.clearFailures()
  fake.clearRequests()
})

const run = <A, E>(
  use: (source: NotionSourceService) => Effect.Effect<A, E>,
  options: Partial<NotionClientSourceOptions> = {}
) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* use(yield* NotionSource)
    }).pipe(
      Effect.result,
      Effect.provide(NotionClientSourceLive({ token: fake.token(), baseUrl: fake.baseUrl, ...options }))
    )
  )

const ok = <A, E>(result: Result.Result<A, E>): A => {
  if (Result.isFailure(result)) throw new Error(`expected success, got ${JSON.stringify(result.failure)}`)
  return result.success
}
const failure = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error("expected a failure")
  return result.failure
}

/** The page's blocks as `kind: text` lines, nested ones indented: a readable picture of the tree. */
const outline = (blocks: ReadonlyArray<NotionBlock>, depth = 0): Array<string> =>
  blocks.flatMap((b) => {
    const pad = "  ".repeat(depth)
    const line = (() => {
      switch (b.kind) {
        case "code":
          return `code(${b.language}): ${b.text.map((t) => t.text).join("")}`
        case "divider":
          return "divider"
        case "image":
        case "file":
        case "pdf":
        case "video":
        case "audio":
          return `${b.kind}(${b.source.hosted ? "hosted" : "external"})`
        case "child_page":
          return `child_page: ${b.title}`
        case "bookmark":
        case "embed":
        case "link_preview":
          return `${b.kind}: ${b.url}`
        case "equation":
          return `equation: ${b.expression}`
        case "table":
          return `table: ${b.rows.map((r) => r.map((c) => c.map((t) => t.text).join("")).join("|")).join(" / ")}`
        case "unsupported":
          return `unsupported: ${b.type}`
        default:
          return `${b.kind}: ${b.text.map((t) => t.text).join("")}`
      }
    })()
    const children = "children" in b ? outline(b.children, depth + 1) : []
    return [`${pad}${line}`, ...children]
  })

describe("NotionClientSource", () => {
  it("reads a whole page: every block, nested children, paging at each level", async () => {
    const page = ok(await run((s) => s.page(fake.pages.root)))
    expect(page).toMatchObject({ id: fake.pages.root, title: "Fixture page", icon: "📘" })
    expect(page.lastEditedTime).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(outline(page.blocks)).toEqual([
      "heading_1: Fixture page",
      "paragraph: Plain, bold, italic, code() and a link",
      "heading_2: Lists",
      "bulleted_list_item: First bullet",
      "bulleted_list_item: Second bullet",
      "  bulleted_list_item: Nested one",
      "  bulleted_list_item: Nested two",
      "bulleted_list_item: Third bullet",
      "numbered_list_item: Step one",
      "numbered_list_item: Step two",
      "to_do: Write the tests",
      "heading_3: Details",
      "code(typescript): const answer = 42",
      "quote: A quote",
      "callout: Remember this",
      "divider",
      "toggle: More",
      ...[1, 2, 3, 4, 5, 6, 7].map((n) => `  paragraph: Hidden ${n}`),
      "image(hosted)",
      "image(external)",
      "file(hosted)",
      // The columns' content, in order, in the flow of the page.
      "paragraph: Left column",
      "paragraph: Right column",
      "table: Name|Value / a|1",
      "bookmark: https://example.com/bookmark",
      "equation: E = mc^2",
      "child_page: Child page",
      "child_page: Second child"
    ])
    // 24 top-level blocks at 5 a page, 7 toggle children at 5 a page, and never a child page's blocks.
    expect(fake.count(`/v1/blocks/${fake.pages.root}/children`)).toBe(5)
    expect(fake.count(`/v1/blocks/${fake.blocks.toggle}/children`)).toBe(2)
    expect(fake.count(`/v1/blocks/${fake.pages.child}/children`)).toBe(0)
    expect(
      fake.requests.every((r) => r.path.includes("page_size=100") || r.path.startsWith("/v1/pages/"))
    ).toBe(true)
  })

  it("keeps annotations, links, checks, icons and media sources", async () => {
    const page = ok(await run((s) => s.page(fake.pages.root)))
    const paragraph = page.blocks[1]
    expect(paragraph?.kind === "paragraph" && paragraph.text).toEqual([
      {
        text: "Plain, ",
        href: null,
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: "bold",
        href: null,
        bold: true,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: ", ",
        href: null,
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: "italic",
        href: null,
        bold: false,
        italic: true,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: ", ",
        href: null,
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: "code()",
        href: null,
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: true
      },
      {
        text: " and ",
        href: null,
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      },
      {
        text: "a link",
        href: "https://example.com/docs",
        bold: false,
        italic: false,
        strikethrough: false,
        underline: false,
        code: false
      }
    ])
    const byId = (id: string) => page.blocks.find((b) => b.id === id)
    expect(page.blocks.find((b) => b.kind === "to_do")).toMatchObject({ checked: true })
    expect(page.blocks.find((b) => b.kind === "callout")).toMatchObject({ icon: "💡" })
    expect(byId(fake.blocks.hostedImage)).toEqual({
      kind: "image",
      id: fake.blocks.hostedImage,
      source: { hosted: true, url: fake.fileUrl("cat.png") },
      caption: [expect.objectContaining({ text: "A cat" })],
      name: null
    })
    expect(byId(fake.blocks.externalImage)).toMatchObject({
      kind: "image",
      source: { hosted: false, url: "https://images.example.com/photo.jpg" }
    })
    expect(byId(fake.blocks.hostedFile)).toMatchObject({
      kind: "file",
      source: { hosted: true, url: fake.fileUrl("notes.pdf") },
      name: "notes.pdf"
    })
    expect(page.blocks.filter((b) => b.kind === "child_page").map((b) => b.id)).toEqual([
      fake.pages.child,
      fake.pages.second
    ])
  })

  it("gives blocks the renderer turns into the page a reader sees", async () => {
    const page = ok(await run((s) => s.page(fake.pages.root)))
    const html = renderNotionBlocks(page.blocks, {
      assetUrl: (blockId) => (blockId === fake.blocks.hostedImage ? `/s/m/assets/${blockId}` : undefined),
      pageUrl: (pageId) => `/s/m/${pageId}`
    })
    expect(html).toContain(
      "<ul><li>First bullet</li><li>Second bullet<ul><li>Nested one</li><li>Nested two</li></ul></li>" +
        "<li>Third bullet</li></ul><ol><li>Step one</li><li>Step two</li></ol>"
    )
    expect(html).toContain(`<img src="/s/m/assets/${fake.blocks.hostedImage}" alt="A cat" loading="lazy">`)
    expect(html).toContain('<img src="https://images.example.com/photo.jpg" alt="A photo" loading="lazy">')
    // The hosted file was not cached here, so it is left out rather than linked to Notion.
    expect(html).not.toContain("notes.pdf")
    expect(html).toContain(`<p class="child-page"><a href="/s/m/${fake.pages.child}">Child page</a></p>`)
  })

  it("sends the token and a pinned Notion-Version on every API request", async () => {
    ok(await run((s) => s.page(fake.pages.second)))
    const api = fake.requests.filter((r) => r.path.startsWith("/v1/"))
    expect(api.length).toBeGreaterThan(0)
    for (const r of api) {
      expect(r.auth).toBe(`Bearer ${fake.token()}`)
      expect(r.notionVersion).toBe(NOTION_API_VERSION)
    }
  })

  it("reads a child page on its own, its grandchild as a child_page block", async () => {
    const page = ok(await run((s) => s.page(fake.pages.child)))
    expect(page.title).toBe("Child page")
    expect(outline(page.blocks)).toEqual(["paragraph: Child content", "child_page: Grandchild page"])
    const grandchild = ok(await run((s) => s.page(fake.pages.grandchild.replace(/-/g, "").toUpperCase())))
    expect(grandchild).toMatchObject({ id: fake.pages.grandchild, title: "Grandchild page", icon: null })
  })

  it("sees edits: a new title and new blocks", async () => {
    const id = "aaaaaaaa-0000-4000-8000-0000000000e1"
    fake.addPage(id, "Editable", { blocks: [fakeBlock.paragraph(["before"])] })
    const before: NotionPage = ok(await run((s) => s.page(id)))
    fake.setPageTitle(id, "Edited")
    fake.setBlocks(id, [fakeBlock.heading2(["after"]), fakeBlock.childDatabase("Tasks")])
    const after = ok(await run((s) => s.page(id)))
    expect(after.title).toBe("Edited")
    expect(outline(after.blocks)).toEqual(["heading_2: after", "unsupported: child_database"])
    expect(after.lastEditedTime > before.lastEditedTime).toBe(true)
  })

  it("downloads a hosted file's bytes exactly, with its type", async () => {
    const result = ok(await run((s) => s.asset(fake.fileUrl("cat.png"), 1024 * 1024)))
    expect(result.contentType).toBe("image/png")
    expect(Buffer.from(result.bytes).equals(Buffer.from(fake.catPng))).toBe(true)
    // A presigned URL: the token is never sent with it.
    expect(fake.requests.at(-1)?.auth).toBeUndefined()
  })

  it("refuses a file past maxBytes as too_large, declared or streamed", async () => {
    const big = new Uint8Array(200_000).fill(7)
    const declared = fake.setFile("big.bin", big, "application/octet-stream")
    const streamed = fake.setFile("big-chunked.bin", big, "application/octet-stream", true)
    for (const url of [declared, streamed])
      expect(failure(await run((s) => s.asset(url, 100_000)))).toMatchObject({ reason: "too_large" })
    // Exactly at the limit is fine.
    expect(ok(await run((s) => s.asset(streamed, 200_000))).bytes.byteLength).toBe(200_000)
  })

  it("maps a missing page and a missing file to not_found", async () => {
    const missing = "aaaaaaaa-0000-4000-8000-0000000000ff"
    expect(failure(await run((s) => s.page(missing)))).toMatchObject({ reason: "not_found" })
    expect(failure(await run((s) => s.asset(fake.fileUrl("nope.png"), 1000)))).toMatchObject({
      reason: "not_found"
    })
    expect(failure(await run((s) => s.page("not a notion id")))).toMatchObject({ reason: "not_found" })
    const trashed = "aaaaaaaa-0000-4000-8000-0000000000e2"
    fake.addPage(trashed, "Trashed")
    fake.trashPage(trashed)
    expect(failure(await run((s) => s.page(trashed)))).toMatchObject({ reason: "not_found" })
    fake.failNext(403)
    expect(failure(await run((s) => s.page(fake.pages.root)))).toMatchObject({ reason: "not_found" })
  })

  it("maps a bad token to unauthorized, with a message that does not echo it", async () => {
    const error = failure(await run((s) => s.page(fake.pages.root), { token: "ntn_wrong_secret" }))
    expect(error).toMatchObject({ _tag: "NotionSourceError", reason: "unauthorized" })
    expect(JSON.stringify(error)).not.toContain("ntn_wrong_secret")
    expect(error.message).not.toContain("API token is invalid")
  })

  it("is disabled without a token: every call fails unauthorized without a request", async () => {
    const enabled = await run((s) => Effect.succeed(s.enabled), { token: undefined })
    expect(ok(enabled)).toBe(false)
    expect(failure(await run((s) => s.page(fake.pages.root), { token: undefined }))).toMatchObject({
      reason: "unauthorized"
    })
    expect(
      failure(await run((s) => s.asset(fake.fileUrl("cat.png"), 1000), { token: undefined }))
    ).toMatchObject({
      reason: "unauthorized"
    })
    expect(fake.requests).toEqual([])
    expect(ok(await run((s) => Effect.succeed(s.enabled)))).toBe(true)
  })

  it("retries a 429 after its Retry-After, then succeeds", async () => {
    fake.failNext(429, 2, { "Retry-After": "1" })
    const started = Date.now()
    const page = ok(await run((s) => s.page(fake.pages.second)))
    expect(page.title).toBe("Second child")
    // Two refusals, then the page and its one children page.
    expect(fake.requests.map((r) => r.path.split("?")[0])).toEqual([
      `/v1/pages/${fake.pages.second}`,
      `/v1/pages/${fake.pages.second}`,
      `/v1/pages/${fake.pages.second}`,
      `/v1/blocks/${fake.pages.second}/children`
    ])
    expect(Date.now() - started).toBeGreaterThanOrEqual(1900)
  })

  it("gives up after maxRetries with rate_limited and the last Retry-After", async () => {
    fake.failNext(429, 10, { "Retry-After": "0" })
    const error = failure(await run((s) => s.page(fake.pages.second), { maxRetries: 3 }))
    expect(error).toMatchObject({ reason: "rate_limited", retryAfterSeconds: 0 })
    expect(fake.count()).toBe(4)
  })

  it("maps 5xx, a silent server and a closed server to unavailable", async () => {
    fake.failNext(503)
    expect(failure(await run((s) => s.page(fake.pages.second)))).toMatchObject({ reason: "unavailable" })

    const held = fake.hold()
    const started = Date.now()
    const timedOut = run((s) => s.page(fake.pages.second), { timeoutMs: 300 })
    await held.reached
    expect(failure(await timedOut)).toMatchObject({ reason: "unavailable" })
    expect(Date.now() - started).toBeLessThan(5000)
    held.release()

    const closed = await startFakeNotion()
    const baseUrl = closed.baseUrl
    await closed.close()
    const error = failure(await run((s) => s.page(fake.pages.root), { baseUrl }))
    expect(error).toMatchObject({ reason: "unavailable" })
    expect(failure(await run((s) => s.asset(`${baseUrl}/files/cat.png`, 1000), { baseUrl }))).toMatchObject({
      reason: "unavailable"
    })
  })

  it("stops a page with more blocks than maxBlocks as too_large", async () => {
    expect(failure(await run((s) => s.page(fake.pages.root), { maxBlocks: 10 }))).toMatchObject({
      reason: "too_large"
    })
  })
})
