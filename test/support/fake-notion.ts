// A local stand-in for the Notion API (pages, paginated block children, its error bodies) plus a
// host for "Notion-hosted" files, so the real client can be tested offline; tests edit its tree.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { PNG } from "pngjs"

/** The fixture's pages: root holds child and second; child holds grandchild. */
export const FAKE_NOTION_PAGES = {
  root: "aaaaaaaa-0000-4000-8000-000000000001",
  child: "aaaaaaaa-0000-4000-8000-000000000002",
  second: "aaaaaaaa-0000-4000-8000-000000000003",
  grandchild: "aaaaaaaa-0000-4000-8000-000000000004"
} as const

export const FAKE_NOTION_TOKEN = "ntn_fake_integration_token"

/** The id of each named block of the fixture (block ids are otherwise generated). */
export const FAKE_NOTION_BLOCKS = {
  hostedImage: "bbbbbbbb-0000-4000-8000-000000000001",
  externalImage: "bbbbbbbb-0000-4000-8000-000000000002",
  hostedFile: "bbbbbbbb-0000-4000-8000-000000000003",
  toggle: "bbbbbbbb-0000-4000-8000-000000000004"
} as const

/** A rich text item in the API's shape. */
export const richText = (
  content: string,
  options: {
    readonly bold?: boolean
    readonly italic?: boolean
    readonly strikethrough?: boolean
    readonly underline?: boolean
    readonly code?: boolean
    readonly href?: string
  } = {}
) => ({
  type: "text",
  text: { content, link: options.href === undefined ? null : { url: options.href } },
  annotations: {
    bold: options.bold ?? false,
    italic: options.italic ?? false,
    strikethrough: options.strikethrough ?? false,
    underline: options.underline ?? false,
    code: options.code ?? false,
    color: "default"
  },
  plain_text: content,
  href: options.href ?? null
})

type RichTextItem = ReturnType<typeof richText>
type Texts = ReadonlyArray<RichTextItem | string>
const texts = (items: Texts) => items.map((t) => (typeof t === "string" ? richText(t) : t))

/** A block as a test writes it: the API's `type` and type-named content, with nested children. */
export interface FakeBlock {
  readonly id?: string
  readonly type: string
  readonly content: Readonly<Record<string, unknown>>
  readonly children?: ReadonlyArray<FakeBlock>
}

const textBlock =
  (type: string) =>
  (items: Texts, children?: ReadonlyArray<FakeBlock>, id?: string): FakeBlock => ({
    type,
    content: { rich_text: texts(items), color: "default" },
    ...(children === undefined ? {} : { children }),
    ...(id === undefined ? {} : { id })
  })

/** Builders for every block kind the fixture uses. */
export const fakeBlock = {
  paragraph: textBlock("paragraph"),
  heading1: textBlock("heading_1"),
  heading2: textBlock("heading_2"),
  heading3: textBlock("heading_3"),
  quote: textBlock("quote"),
  bulleted: textBlock("bulleted_list_item"),
  numbered: textBlock("numbered_list_item"),
  toggle: textBlock("toggle"),
  toDo: (items: Texts, checked: boolean): FakeBlock => ({
    type: "to_do",
    content: { rich_text: texts(items), color: "default", checked }
  }),
  callout: (items: Texts, emoji: string): FakeBlock => ({
    type: "callout",
    content: { rich_text: texts(items), color: "default", icon: { type: "emoji", emoji } }
  }),
  code: (code: string, language: string): FakeBlock => ({
    type: "code",
    content: { rich_text: texts([code]), caption: [], language }
  }),
  divider: (): FakeBlock => ({ type: "divider", content: {} }),
  hostedImage: (url: string, caption: string, id?: string): FakeBlock => ({
    type: "image",
    content: {
      type: "file",
      file: { url, expiry_time: "2099-01-01T00:00:00.000Z" },
      caption: texts([caption])
    },
    ...(id === undefined ? {} : { id })
  }),
  externalImage: (url: string, caption: string, id?: string): FakeBlock => ({
    type: "image",
    content: { type: "external", external: { url }, caption: texts([caption]) },
    ...(id === undefined ? {} : { id })
  }),
  hostedFile: (url: string, name: string, id?: string): FakeBlock => ({
    type: "file",
    content: { type: "file", file: { url, expiry_time: "2099-01-01T00:00:00.000Z" }, caption: [], name },
    ...(id === undefined ? {} : { id })
  }),
  bookmark: (url: string, caption: string): FakeBlock => ({
    type: "bookmark",
    content: { url, caption: texts(caption === "" ? [] : [caption]) }
  }),
  equation: (expression: string): FakeBlock => ({ type: "equation", content: { expression } }),
  columns: (...columns: ReadonlyArray<ReadonlyArray<FakeBlock>>): FakeBlock => ({
    type: "column_list",
    content: {},
    children: columns.map((children) => ({ type: "column", content: { width_ratio: 0.5 }, children }))
  }),
  table: (rows: ReadonlyArray<ReadonlyArray<string>>, hasColumnHeader: boolean): FakeBlock => ({
    type: "table",
    content: { table_width: rows[0]?.length ?? 0, has_column_header: hasColumnHeader, has_row_header: false },
    children: rows.map((cells) => ({
      type: "table_row",
      content: { cells: cells.map((c) => [richText(c)]) }
    }))
  }),
  childPage: (pageId: string, title: string): FakeBlock => ({
    id: pageId,
    type: "child_page",
    content: { title }
  }),
  childDatabase: (title: string): FakeBlock => ({ type: "child_database", content: { title } })
}

/** A real PNG (pngjs), `size` x `size` pixels of one colour. */
export const tinyPng = (size = 2): Uint8Array => {
  const png = new PNG({ width: size, height: size })
  for (let i = 0; i < size * size; i++) png.data.set([200, 120, 40, 255], i * 4)
  return new Uint8Array(PNG.sync.write(png))
}

export interface FakeNotionRequest {
  readonly method: string
  /** Path and query. */
  readonly path: string
  readonly auth: string | undefined
  readonly notionVersion: string | undefined
}

export interface FakeNotionOptions {
  readonly token?: string
  /** The most blocks one children page holds, whatever page_size asks (Notion's own cap is 100). */
  readonly maxPageSize?: number
}

interface StoredPage {
  title: string
  icon: string | null
  parentId: string | null
  lastEditedTime: string
  inTrash: boolean
}

interface StoredBlock {
  readonly id: string
  readonly type: string
  readonly content: Readonly<Record<string, unknown>>
  readonly parentId: string
  readonly parentIsPage: boolean
}

interface StoredFile {
  readonly bytes: Uint8Array
  readonly contentType: string
  /** Sent without Content-Length (chunked), so a reader cannot know the size up front. */
  readonly chunked: boolean
}

const ERROR_CODES: Readonly<Record<number, string>> = {
  400: "validation_error",
  401: "unauthorized",
  403: "restricted_resource",
  404: "object_not_found",
  409: "conflict_error",
  429: "rate_limited",
  500: "internal_server_error",
  502: "internal_server_error",
  503: "service_unavailable",
  504: "gateway_timeout"
}

const USER = { object: "user", id: "cccccccc-0000-4000-8000-000000000001" }
const CREATED = "2025-01-01T00:00:00.000Z"

/** Dashed lowercase form of a 32-hex or dashed id; undefined for anything else. */
const normalizeId = (raw: string): string | undefined => {
  const hex = raw.replace(/-/g, "").toLowerCase()
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

export const startFakeNotion = async (options: FakeNotionOptions = {}) => {
  let token = options.token ?? FAKE_NOTION_TOKEN
  const maxPageSize = options.maxPageSize ?? 5
  const pages = new Map<string, StoredPage>()
  const children = new Map<string, Array<StoredBlock>>()
  const files = new Map<string, StoredFile>()
  const requests: Array<FakeNotionRequest> = []
  const failures: Array<{ status: number; headers: Readonly<Record<string, string>> }> = []
  const holds: Array<{ reached: () => void; gate: Promise<void> }> = []
  let edits = 0
  let nextBlock = 0

  const editedAt = () => new Date(Date.parse(CREATED) + ++edits * 60_000).toISOString()
  const newBlockId = () => `dddddddd-0000-4000-8000-${(++nextBlock).toString(16).padStart(12, "0")}`

  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body)
    res.writeHead(status, { "content-type": "application/json", ...headers })
    res.end(text)
  }
  const sendError = (
    res: ServerResponse,
    status: number,
    message: string,
    headers: Readonly<Record<string, string>> = {}
  ) =>
    send(
      res,
      status,
      {
        object: "error",
        status,
        code: ERROR_CODES[status] ?? "internal_server_error",
        message,
        request_id: "fake"
      },
      { ...headers }
    )

  const pageJson = (id: string, page: StoredPage) => ({
    object: "page",
    id,
    created_time: CREATED,
    last_edited_time: page.lastEditedTime,
    created_by: USER,
    last_edited_by: USER,
    cover: null,
    icon: page.icon === null ? null : { type: "emoji", emoji: page.icon },
    parent:
      page.parentId === null
        ? { type: "workspace", workspace: true }
        : { type: "page_id", page_id: page.parentId },
    in_trash: page.inTrash,
    archived: page.inTrash,
    is_archived: page.inTrash,
    is_locked: false,
    properties: { title: { id: "title", type: "title", title: [richText(page.title)] } },
    url: `https://www.notion.so/${page.title.replace(/[^A-Za-z0-9]+/g, "-")}-${id.replace(/-/g, "")}`,
    public_url: null,
    request_id: "fake"
  })

  const blockJson = (block: StoredBlock) => ({
    object: "block",
    id: block.id,
    parent: block.parentIsPage
      ? { type: "page_id", page_id: block.parentId }
      : { type: "block_id", block_id: block.parentId },
    created_time: CREATED,
    last_edited_time: CREATED,
    created_by: USER,
    last_edited_by: USER,
    has_children: (children.get(block.id)?.length ?? 0) > 0,
    in_trash: false,
    archived: false,
    type: block.type,
    [block.type]: block.content
  })

  /** Drops what is stored under `parentId`, except child pages' own content. */
  const dropUnder = (parentId: string) => {
    for (const block of children.get(parentId) ?? []) if (block.type !== "child_page") dropUnder(block.id)
    children.delete(parentId)
  }

  const store = (parentId: string, blocks: ReadonlyArray<FakeBlock>) => {
    dropUnder(parentId)
    const parentIsPage = pages.has(parentId)
    children.set(
      parentId,
      blocks.map((b) => {
        const stored: StoredBlock = {
          id: b.id ?? newBlockId(),
          type: b.type,
          content: b.content,
          parentId,
          parentIsPage
        }
        if (b.children !== undefined && b.type !== "child_page") store(stored.id, b.children)
        return stored
      })
    )
  }

  const pageOf = (id: string) => {
    const page = pages.get(id)
    if (page === undefined) throw new Error(`fake Notion: no page ${id}`)
    return page
  }

  const touch = (pageId: string) => {
    pageOf(pageId).lastEditedTime = editedAt()
  }

  const listChildren = (res: ServerResponse, url: URL, id: string) => {
    const all = children.get(id)
    if (all === undefined && !pages.has(id))
      return sendError(res, 404, `Could not find block with ID: ${id}.`)
    const list = all ?? []
    const asked = Number(url.searchParams.get("page_size") ?? 100)
    const size = Math.max(1, Math.min(Number.isFinite(asked) ? asked : 100, 100, maxPageSize))
    const cursor = url.searchParams.get("start_cursor")
    const start = cursor === null ? 0 : list.findIndex((b) => b.id === cursor)
    if (start < 0) return sendError(res, 400, "start_cursor provided is invalid.")
    const slice = list.slice(start, start + size)
    const next = list[start + size]
    send(res, 200, {
      object: "list",
      results: slice.map(blockJson),
      next_cursor: next?.id ?? null,
      has_more: next !== undefined,
      type: "block",
      block: {},
      request_id: "fake"
    })
  }

  const serveFile = (res: ServerResponse, name: string) => {
    const file = files.get(name)
    if (file === undefined) {
      res.writeHead(404, { "content-type": "text/plain" })
      res.end("no such file")
      return
    }
    res.writeHead(200, {
      "content-type": file.contentType,
      ...(file.chunked ? {} : { "content-length": String(file.bytes.byteLength) })
    })
    // Several writes, so a reader sees the body arrive in pieces.
    const piece = 16 * 1024
    for (let at = 0; at < file.bytes.byteLength; at += piece) res.write(file.bytes.subarray(at, at + piece))
    res.end()
  }

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://fake")
    requests.push({
      method: req.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      auth: req.headers.authorization,
      notionVersion: req.headers["notion-version"] as string | undefined
    })
    const hold = holds.shift()
    if (hold !== undefined) {
      hold.reached()
      await hold.gate
    }
    const failure = failures.shift()
    if (failure !== undefined) return sendError(res, failure.status, "Injected failure.", failure.headers)

    const file = /^\/files\/([^/]+)$/.exec(url.pathname)
    if (file?.[1] !== undefined && req.method === "GET") return serveFile(res, decodeURIComponent(file[1]))

    if (!url.pathname.startsWith("/v1/")) return sendError(res, 404, "Not found.")
    if (req.headers["notion-version"] === undefined)
      return send(res, 400, {
        object: "error",
        status: 400,
        code: "missing_version",
        message: "Notion-Version header failed validation: Notion-Version header should be defined."
      })
    if (req.headers.authorization !== `Bearer ${token}`) return sendError(res, 401, "API token is invalid.")
    if (req.method !== "GET") return sendError(res, 400, "Only reads are faked.")

    const page = /^\/v1\/pages\/([^/]+)$/.exec(url.pathname)
    if (page?.[1] !== undefined) {
      const id = normalizeId(page[1])
      const stored = id === undefined ? undefined : pages.get(id)
      if (id === undefined || stored === undefined)
        return sendError(res, 404, `Could not find page with ID: ${page[1]}.`)
      return send(res, 200, pageJson(id, stored))
    }
    const list = /^\/v1\/blocks\/([^/]+)\/children$/.exec(url.pathname)
    if (list?.[1] !== undefined) {
      const id = normalizeId(list[1])
      if (id === undefined) return sendError(res, 400, "path.block_id should be a valid uuid.")
      return listChildren(res, url, id)
    }
    return sendError(res, 400, "Invalid request URL.")
  }

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500)
      res.end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const fileUrl = (name: string) =>
    `${baseUrl}/files/${encodeURIComponent(name)}?X-Amz-Expires=3600&X-Amz-Signature=fake`
  const setFile = (name: string, bytes: Uint8Array, contentType: string, chunked = false) => {
    files.set(name, { bytes, contentType, chunked })
    return fileUrl(name)
  }

  const addPage = (
    id: string,
    title: string,
    parentId: string | null,
    blocks: ReadonlyArray<FakeBlock>,
    icon: string | null = null
  ) => {
    pages.set(id, { title, icon, parentId, lastEditedTime: editedAt(), inTrash: false })
    store(id, blocks)
  }

  // The fixture tree.
  const catPng = tinyPng()
  setFile("cat.png", catPng, "image/png")
  const notesPdf = new TextEncoder().encode("%PDF-1.4\n% fake notes\n%%EOF\n")
  setFile("notes.pdf", notesPdf, "application/pdf")
  const P = FAKE_NOTION_PAGES
  addPage(
    P.root,
    "Fixture page",
    null,
    [
      fakeBlock.heading1(["Fixture page"]),
      fakeBlock.paragraph([
        "Plain, ",
        richText("bold", { bold: true }),
        ", ",
        richText("italic", { italic: true }),
        ", ",
        richText("code()", { code: true }),
        " and ",
        richText("a link", { href: "https://example.com/docs" })
      ]),
      fakeBlock.heading2(["Lists"]),
      fakeBlock.bulleted(["First bullet"]),
      fakeBlock.bulleted(
        ["Second bullet"],
        [fakeBlock.bulleted(["Nested one"]), fakeBlock.bulleted(["Nested two"])]
      ),
      fakeBlock.bulleted(["Third bullet"]),
      fakeBlock.numbered(["Step one"]),
      fakeBlock.numbered(["Step two"]),
      fakeBlock.toDo(["Write the tests"], true),
      fakeBlock.heading3(["Details"]),
      fakeBlock.code("const answer = 42", "typescript"),
      fakeBlock.quote(["A quote"]),
      fakeBlock.callout(["Remember this"], "💡"),
      fakeBlock.divider(),
      fakeBlock.toggle(
        ["More"],
        [1, 2, 3, 4, 5, 6, 7].map((n) => fakeBlock.paragraph([`Hidden ${n}`])),
        FAKE_NOTION_BLOCKS.toggle
      ),
      fakeBlock.hostedImage(fileUrl("cat.png"), "A cat", FAKE_NOTION_BLOCKS.hostedImage),
      fakeBlock.externalImage(
        "https://images.example.com/photo.jpg",
        "A photo",
        FAKE_NOTION_BLOCKS.externalImage
      ),
      fakeBlock.hostedFile(fileUrl("notes.pdf"), "notes.pdf", FAKE_NOTION_BLOCKS.hostedFile),
      fakeBlock.columns([fakeBlock.paragraph(["Left column"])], [fakeBlock.paragraph(["Right column"])]),
      fakeBlock.table(
        [
          ["Name", "Value"],
          ["a", "1"]
        ],
        true
      ),
      fakeBlock.bookmark("https://example.com/bookmark", "A bookmark"),
      fakeBlock.equation("E = mc^2"),
      fakeBlock.childPage(P.child, "Child page"),
      fakeBlock.childPage(P.second, "Second child")
    ],
    "📘"
  )
  addPage(P.child, "Child page", P.root, [
    fakeBlock.paragraph(["Child content"]),
    fakeBlock.childPage(P.grandchild, "Grandchild page")
  ])
  addPage(P.second, "Second child", P.root, [fakeBlock.paragraph(["Second content"])])
  addPage(P.grandchild, "Grandchild page", P.child, [fakeBlock.paragraph(["Grandchild content"])])

  return {
    baseUrl,
    token: () => token,
    pages: FAKE_NOTION_PAGES,
    blocks: FAKE_NOTION_BLOCKS,
    /** Every request received, in order. */
    requests,
    /** How many requests had a path starting with `prefix` (all when omitted). */
    count: (prefix = "") => requests.filter((r) => r.path.startsWith(prefix)).length,
    clearRequests: () => {
      requests.length = 0
    },
    /** The token the API accepts from now on. */
    setToken: (next: string) => {
      token = next
    },
    /** The next `times` requests (API or file) answer `status` with Notion's error body and `headers`. */
    failNext: (status: number, times = 1, headers: Readonly<Record<string, string>> = {}) => {
      for (let i = 0; i < times; i++) failures.push({ status, headers })
    },
    /** Cancels failures injected and not yet served. */
    clearFailures: () => {
      failures.length = 0
    },
    /**
     * The next request waits until released: `reached` resolves once it arrived (for a test that
     * kills or interrupts the caller mid-request).
     */
    hold: () => {
      let reached: () => void = () => undefined
      let release: () => void = () => undefined
      const arrived = new Promise<void>((resolve) => {
        reached = resolve
      })
      const gate = new Promise<void>((resolve) => {
        release = resolve
      })
      holds.push({ reached, gate })
      return { reached: arrived, release }
    },
    addPage: (
      id: string,
      title: string,
      options: {
        readonly parentId?: string | null
        readonly blocks?: ReadonlyArray<FakeBlock>
        readonly icon?: string | null
      } = {}
    ) => addPage(id, title, options.parentId ?? null, options.blocks ?? [], options.icon ?? null),
    removePage: (id: string) => {
      dropUnder(id)
      pages.delete(id)
    },
    trashPage: (id: string) => {
      pageOf(id).inTrash = true
    },
    /** Renames a page, and the child_page block that shows it in its parent (as Notion does). */
    setPageTitle: (id: string, title: string) => {
      const page = pageOf(id)
      page.title = title
      touch(id)
      const parent = page.parentId === null ? undefined : children.get(page.parentId)
      if (parent !== undefined && page.parentId !== null) {
        const at = parent.findIndex((b) => b.id === id)
        const old = parent[at]
        if (old !== undefined) parent[at] = { ...old, content: { title } }
      }
    },
    setPageIcon: (id: string, icon: string | null) => {
      pageOf(id).icon = icon
      touch(id)
    },
    /** Replaces the blocks of a page (or of a block); child pages' own content is kept. */
    setBlocks: (id: string, blocks: ReadonlyArray<FakeBlock>) => {
      store(id, blocks)
      if (pages.has(id)) touch(id)
    },
    setFile,
    fileUrl,
    catPng,
    notesPdf,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

export type FakeNotion = Awaited<ReturnType<typeof startFakeNotion>>
