// A Notion page's blocks as HTML (escaping, which links become links, lists, toggles, headings,
// tables, media with and without a cached copy) and the page id found in what an owner pastes.
import {
  type NotionBlock,
  type NotionRenderLinks,
  type NotionRichText,
  notionPageIdFrom,
  notionPlainText,
  renderNotionBlocks
} from "@folio/domain"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const t = (text: string, extra: Partial<NotionRichText> = {}): NotionRichText => ({
  text,
  href: null,
  bold: false,
  italic: false,
  strikethrough: false,
  underline: false,
  code: false,
  ...extra
})

let ids = 0
const id = () => `block-${++ids}`
const p = (text: string, children: ReadonlyArray<NotionBlock> = []): NotionBlock => ({
  kind: "paragraph",
  id: id(),
  text: [t(text)],
  children
})
const bullet = (text: string, children: ReadonlyArray<NotionBlock> = []): NotionBlock => ({
  kind: "bulleted_list_item",
  id: id(),
  text: [t(text)],
  children
})
const numbered = (text: string, children: ReadonlyArray<NotionBlock> = []): NotionBlock => ({
  kind: "numbered_list_item",
  id: id(),
  text: [t(text)],
  children
})

const links: NotionRenderLinks = {
  assetUrl: (blockId) => (blockId.startsWith("cached") ? `/s/mirror/assets/${blockId}` : undefined),
  pageUrl: (pageId) => `/s/mirror/${pageId}`
}
const render = (blocks: ReadonlyArray<NotionBlock>) => renderNotionBlocks(blocks, links)

describe("renderNotionBlocks", () => {
  it("escapes text everywhere: script tags, quotes, ampersands", () => {
    const html = render([
      p(`<script>alert("x")</script> & 'quoted'`),
      { kind: "code", id: id(), text: [t("if (a < b && c > d) {}")], language: "typescript" },
      { kind: "equation", id: id(), expression: "a<b" }
    ])
    expect(html).toBe(
      "<p>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;</p>" +
        '<pre><code class="language-typescript">if (a &lt; b &amp;&amp; c &gt; d) {}</code></pre>' +
        '<p><span class="equation">a&lt;b</span></p>'
    )
  })

  it("keeps injection out of attributes: href, caption (alt), code language, icon", () => {
    const html = render([
      p("x", []),
      {
        kind: "paragraph",
        id: id(),
        text: [t("click", { href: 'https://ok.example/"><img/src=x/onerror=alert(1)>' })],
        children: []
      },
      {
        kind: "image",
        id: "cached-1",
        source: { hosted: true, url: "https://notion.example/file.png" },
        caption: [t('" onerror="alert(1)')],
        name: null
      },
      { kind: "code", id: id(), text: [t("x")], language: 'js" onload="alert(1)' },
      { kind: "callout", id: id(), text: [t("note")], children: [], icon: '"><script>' }
    ])
    expect(html).toContain(
      '<a href="https://ok.example/&quot;&gt;&lt;img/src=x/onerror=alert(1)&gt;" rel="noopener noreferrer nofollow">click</a>'
    )
    expect(html).toContain(
      '<figure><img src="/s/mirror/assets/cached-1" alt="&quot; onerror=&quot;alert(1)" loading="lazy">' +
        "<figcaption>&quot; onerror=&quot;alert(1)</figcaption></figure>"
    )
    expect(html).toContain('<pre><code class="language-jsonloadalert1">x</code></pre>')
    expect(html).toContain('<span class="callout-icon" aria-hidden="true">&quot;&gt;&lt;script&gt;</span>')
    expect(html).not.toMatch(/<script|<img[ /]src=x/i)
  })

  it("links only http, https and mailto; other schemes are plain text", () => {
    const linked = (href: string) =>
      render([{ kind: "paragraph", id: id(), text: [t("go", { href })], children: [] }])
    expect(linked("https://example.com/a?b=1&c=2")).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">go</a></p>'
    )
    expect(linked("http://example.com/")).toContain('<a href="http://example.com/"')
    expect(linked("mailto:someone@example.com")).toContain('<a href="mailto:someone@example.com"')
    for (const bad of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "vbscript:msgbox(1)",
      "//evil.example/",
      "/relative/path",
      "https:evil.example"
    ])
      expect(linked(bad)).toBe("<p>go</p>")
  })

  it("shows an unsafe bookmark or embed as its address in plain text", () => {
    expect(
      render([{ kind: "bookmark", id: id(), url: "javascript:alert(document.cookie)", caption: [] }])
    ).toBe('<p class="bookmark">javascript:alert(document.cookie)</p>')
    expect(
      render([{ kind: "embed", id: id(), url: "https://example.com/embed", caption: [t("Embed")] }])
    ).toBe(
      '<p class="bookmark"><a href="https://example.com/embed" rel="noopener noreferrer nofollow">Embed</a></p>'
    )
    expect(render([{ kind: "link_preview", id: id(), url: "https://example.com/x", caption: [] }])).toBe(
      '<p class="bookmark"><a href="https://example.com/x" rel="noopener noreferrer nofollow">https://example.com/x</a></p>'
    )
  })

  it("maps annotations to strong, em, s, u and code, line breaks to br", () => {
    const html = render([
      {
        kind: "paragraph",
        id: id(),
        text: [
          t("b", { bold: true }),
          t("i", { italic: true }),
          t("s", { strikethrough: true }),
          t("u", { underline: true }),
          t("c", { code: true }),
          t("all", { bold: true, italic: true, code: true, href: "https://example.com" }),
          t("line\nbreak")
        ],
        children: []
      }
    ])
    expect(html).toBe(
      "<p><strong>b</strong><em>i</em><s>s</s><u>u</u><code>c</code>" +
        '<a href="https://example.com" rel="noopener noreferrer nofollow"><strong><em><code>all</code></em></strong></a>' +
        "line<br>break</p>"
    )
  })

  it("groups consecutive list items into one list and nests children inside the item", () => {
    const html = render([
      bullet("a"),
      bullet("b", [bullet("b1"), bullet("b2"), numbered("b3")]),
      numbered("one"),
      numbered("two"),
      p("between"),
      bullet("again"),
      { kind: "to_do", id: id(), text: [t("done")], children: [], checked: true },
      { kind: "to_do", id: id(), text: [t("open")], children: [], checked: false }
    ])
    expect(html).toBe(
      "<ul><li>a</li><li>b<ul><li>b1</li><li>b2</li></ul><ol><li>b3</li></ol></li></ul>" +
        "<ol><li>one</li><li>two</li></ol>" +
        "<p>between</p>" +
        "<ul><li>again</li></ul>" +
        '<ul class="to-do"><li><label><input type="checkbox" disabled checked> done</label></li>' +
        '<li><label><input type="checkbox" disabled> open</label></li></ul>'
    )
  })

  it("renders toggles as details, quotes, callouts, dividers and indented children", () => {
    const html = render([
      { kind: "toggle", id: id(), text: [t("More")], children: [p("hidden"), bullet("x")] },
      { kind: "quote", id: id(), text: [t("Said")], children: [] },
      { kind: "callout", id: id(), text: [t("Note")], children: [p("inside")], icon: "💡" },
      { kind: "divider", id: id() },
      p("parent", [p("child")])
    ])
    expect(html).toBe(
      "<details><summary>More</summary><p>hidden</p><ul><li>x</li></ul></details>" +
        "<blockquote><p>Said</p></blockquote>" +
        '<aside class="callout"><span class="callout-icon" aria-hidden="true">💡</span><p>Note</p><p>inside</p></aside>' +
        "<hr>" +
        '<p>parent</p><div class="indent"><p>child</p></div>'
    )
  })

  it("shifts headings down one level (the page title is the h1)", () => {
    const heading = (kind: "heading_1" | "heading_2" | "heading_3", text: string): NotionBlock => ({
      kind,
      id: id(),
      text: [t(text)],
      children: []
    })
    expect(render([heading("heading_1", "A"), heading("heading_2", "B"), heading("heading_3", "C")])).toBe(
      "<h2>A</h2><h3>B</h3><h4>C</h4>"
    )
  })

  it("renders tables with and without a header row", () => {
    const rows = [
      [[t("Name")], [t("Value")]],
      [[t("a")], [t("<1>", { bold: true })]]
    ]
    expect(render([{ kind: "table", id: id(), hasColumnHeader: true, rows }])).toBe(
      "<table><thead><tr><th>Name</th><th>Value</th></tr></thead>" +
        "<tbody><tr><td>a</td><td><strong>&lt;1&gt;</strong></td></tr></tbody></table>"
    )
    expect(render([{ kind: "table", id: id(), hasColumnHeader: false, rows }])).toBe(
      "<table><tbody><tr><td>Name</td><td>Value</td></tr>" +
        "<tr><td>a</td><td><strong>&lt;1&gt;</strong></td></tr></tbody></table>"
    )
  })

  it("shows hosted media from our cache only, and nothing when it could not be cached", () => {
    const hosted = (
      kind: "image" | "file" | "pdf" | "video" | "audio",
      blockId: string,
      name: string | null
    ) =>
      ({
        kind,
        id: blockId,
        source: { hosted: true, url: "https://prod-files.notion.example/secret.bin?X-Amz-Signature=abc" },
        caption: [t("Caption")],
        name
      }) as const
    expect(render([hosted("image", "missing-1", null)])).toBe("")
    expect(render([hosted("pdf", "missing-2", "report.pdf")])).toBe("")
    expect(render([hosted("image", "cached-img", null)])).toBe(
      '<figure><img src="/s/mirror/assets/cached-img" alt="Caption" loading="lazy"><figcaption>Caption</figcaption></figure>'
    )
    expect(render([hosted("file", "cached-file", "report.pdf")])).toBe(
      '<p class="file"><a href="/s/mirror/assets/cached-file">report.pdf</a></p>'
    )
    expect(render([{ ...hosted("video", "cached-video", null), caption: [] }])).toBe(
      '<p class="file"><a href="/s/mirror/assets/cached-video">Video</a></p>'
    )
    // The expiring Notion URL never reaches the page.
    expect(render([hosted("audio", "cached-audio", null)])).not.toContain("X-Amz-Signature")
  })

  it("shows external images by their https address and other external media as links", () => {
    const external = (kind: "image" | "video", url: string) =>
      ({ kind, id: id(), source: { hosted: false, url }, caption: [], name: null }) as const
    expect(render([external("image", "https://images.example.com/a.jpg")])).toBe(
      '<figure><img src="https://images.example.com/a.jpg" alt="" loading="lazy"></figure>'
    )
    expect(render([external("video", "https://videos.example.com/v")])).toBe(
      '<p class="file"><a href="https://videos.example.com/v" rel="noopener noreferrer nofollow">https://videos.example.com/v</a></p>'
    )
    expect(render([external("image", "javascript:alert(1)")])).toBe('<p class="file">javascript:alert(1)</p>')
  })

  it("links child pages through pageUrl and drops unsupported blocks", () => {
    expect(
      render([
        { kind: "child_page", id: "page-1", title: "Sub <page>" },
        { kind: "child_page", id: "page-2", title: "  " },
        { kind: "unsupported", id: id(), type: "child_database" }
      ])
    ).toBe(
      '<p class="child-page"><a href="/s/mirror/page-1">Sub &lt;page&gt;</a></p>' +
        '<p class="child-page"><a href="/s/mirror/page-2">Untitled</a></p>'
    )
    expect(
      renderNotionBlocks([{ kind: "child_page", id: "x", title: "T" }], {
        ...links,
        pageUrl: () => "javascript:x"
      })
    ).toBe('<p class="child-page">T</p>')
  })

  it("gives the plain text of rich text", () => {
    expect(notionPlainText([t("a", { bold: true }), t(" b", { href: "https://x.example" })])).toBe("a b")
    expect(notionPlainText([])).toBe("")
  })
})

/** Every tag in the output, for the structural checks of the property below. */
const ALLOWED_TAGS = new Set([
  "p",
  "h2",
  "h3",
  "h4",
  "ul",
  "ol",
  "li",
  "input",
  "label",
  "details",
  "summary",
  "blockquote",
  "aside",
  "span",
  "pre",
  "code",
  "hr",
  "figure",
  "img",
  "figcaption",
  "a",
  "table",
  "thead",
  "tbody",
  "tr",
  "th",
  "td",
  "strong",
  "em",
  "s",
  "u",
  "br",
  "div"
])
const ALLOWED_ATTRIBUTES = new Set([
  "href",
  "rel",
  "class",
  "src",
  "alt",
  "loading",
  "type",
  "disabled",
  "checked",
  "aria-hidden"
])
const decodeEntities = (value: string) =>
  value.replace(
    /&(amp|lt|gt|quot|#39);/g,
    (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e] ?? ""
  )

const problemsIn = (html: string): Array<string> => {
  const problems: Array<string> = []
  if (/<script/i.test(html)) problems.push("<script")
  for (const [tag] of html.matchAll(/<[^>]*>/g)) {
    const name = /^<\/?([a-z0-9]+)/.exec(tag)?.[1]
    if (name === undefined || !ALLOWED_TAGS.has(name)) problems.push(`tag ${tag}`)
    const body = tag.replace(/^<\/?[a-z0-9]+/, "").replace(/\/?>$/, "")
    const attributes = [...body.matchAll(/\s([^\s="]+)(?:="([^"]*)")?/g)]
    // Nothing may be left between the attributes (an unquoted or broken one).
    if (body.replace(/\s([^\s="]+)(?:="([^"]*)")?/g, "").trim() !== "") problems.push(`malformed ${tag}`)
    for (const [, attribute = "", value] of attributes) {
      // `onerror=` or `javascript:` inside a quoted (escaped) alt or class value is only text.
      if (!ALLOWED_ATTRIBUTES.has(attribute) || /^on/i.test(attribute))
        problems.push(`attribute ${attribute}`)
      if (
        (attribute === "href" || attribute === "src") &&
        !/^(https?:|mailto:|\/(?![/\\]))/i.test(decodeEntities(value ?? ""))
      )
        problems.push(`url ${value}`)
    }
  }
  // Outside tags, only escaped text remains.
  if (/["'<>]/.test(html.replace(/<[^>]*>/g, ""))) problems.push("raw character in text")
  return problems
}

describe("rendering, for any text", () => {
  const fragment = fc.oneof(
    fc.string(),
    fc.constantFrom(
      "<script>alert(1)</script>",
      '" onerror="alert(1)',
      "' onerror='alert(1)",
      "javascript:alert(1)",
      "<img src=x onerror=alert(1)>",
      "</code></pre><script>",
      "&lt;script&gt;",
      "\u0000\n\t"
    )
  )
  const text = fc.array(fragment, { maxLength: 4 }).map((parts) => parts.join(""))
  const href = fc.oneof(
    fc.constant(null),
    fc.webUrl(),
    fc.constantFrom(
      "javascript:alert(1)",
      " JavaScript:alert(1)",
      "java\nscript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      'https://ok.example/" onerror="alert(1)',
      "mailto:a@example.com",
      "//evil.example"
    ),
    text
  )
  const rich = fc.array(
    fc.record({
      text,
      href,
      bold: fc.boolean(),
      italic: fc.boolean(),
      strikethrough: fc.boolean(),
      underline: fc.boolean(),
      code: fc.boolean()
    }),
    { maxLength: 3 }
  )
  const url = fc.oneof(fc.webUrl(), text, fc.constant("javascript:alert(1)"))
  const leaf: fc.Arbitrary<NotionBlock> = fc.oneof(
    fc.record({
      kind: fc.constantFrom(
        "paragraph",
        "heading_1",
        "heading_2",
        "heading_3",
        "quote",
        "bulleted_list_item",
        "numbered_list_item",
        "toggle"
      ),
      id: text,
      text: rich,
      children: fc.constant([])
    }),
    fc.record({
      kind: fc.constant("to_do"),
      id: text,
      text: rich,
      children: fc.constant([]),
      checked: fc.boolean()
    }),
    fc.record({
      kind: fc.constant("callout"),
      id: text,
      text: rich,
      children: fc.constant([]),
      icon: fc.option(text, { nil: null })
    }),
    fc.record({ kind: fc.constant("code"), id: text, text: rich, language: text }),
    fc.record({
      kind: fc.constantFrom("image", "file", "pdf", "video", "audio"),
      id: fc.oneof(
        text,
        text.map((s) => `cached${s}`)
      ),
      source: fc.record({ hosted: fc.boolean(), url }) as fc.Arbitrary<{ hosted: true; url: string }>,
      caption: rich,
      name: fc.option(text, { nil: null })
    }),
    fc.record({ kind: fc.constant("child_page"), id: text, title: text }),
    fc.record({ kind: fc.constantFrom("bookmark", "embed", "link_preview"), id: text, url, caption: rich }),
    fc.record({ kind: fc.constant("equation"), id: text, expression: text }),
    fc.record({
      kind: fc.constant("table"),
      id: text,
      hasColumnHeader: fc.boolean(),
      rows: fc.array(fc.array(rich, { maxLength: 3 }), { maxLength: 3 })
    }),
    fc.record({ kind: fc.constant("unsupported"), id: text, type: text })
  )
  const nested: fc.Arbitrary<NotionBlock> = fc
    .tuple(leaf, fc.array(leaf, { maxLength: 3 }))
    .map(([block, children]) => ("children" in block ? { ...block, children } : block))

  it("never writes a script tag, an event handler, a javascript: URL or an unknown tag", () => {
    fc.assert(
      fc.property(fc.array(nested, { maxLength: 6 }), (blocks) => {
        // Ids become path segments as a caller would make them, so hostile ids reach attributes too.
        const html = renderNotionBlocks(blocks, {
          assetUrl: (blockId) =>
            blockId.startsWith("cached") ? `/assets/${encodeURIComponent(blockId)}` : undefined,
          pageUrl: (pageId) => `/pages/${encodeURIComponent(pageId)}`
        })
        expect(problemsIn(html)).toEqual([])
      }),
      { numRuns: 500 }
    )
  })
})

describe("notionPageIdFrom", () => {
  const hex = "0123456789abcdef0123456789abcdef"
  const uuid = "01234567-89ab-cdef-0123-456789abcdef"

  it.each([
    [`https://www.notion.so/workspace/Some-Title-${hex}`],
    [`https://www.notion.so/workspace/Some-Title-${hex}?v=fedcba9876543210fedcba9876543210`],
    [`https://www.notion.so/workspace/Some-Title-${hex}#heading-anchor`],
    [`https://notion.so/Some-Title-${hex}`],
    [`https://www.notion.so/${hex}`],
    [`https://notion.site/Some-Title-${hex}`],
    [`https://xyz.notion.site/Title-${hex}`],
    [`https://xyz.notion.site/Title-${hex.toUpperCase()}?pvs=4`],
    [`https://www.notion.com/workspace/Title-${hex}`],
    [`https://www.notion.so/workspace/${uuid}`],
    [`https://www.notion.so/workspace/db-fedcba9876543210fedcba9876543210?v=1111&p=${hex}&pm=s`],
    [hex],
    [hex.toUpperCase()],
    [uuid],
    [uuid.toUpperCase()],
    [`  ${hex}  `]
  ])("finds the page in %s", (input) => {
    expect(notionPageIdFrom(input)).toBe(uuid)
  })

  it.each([
    [""],
    ["hello"],
    [hex.slice(1)],
    [`${hex}0`],
    ["0123456789abcdef0123456789abcdeg"],
    [`https://example.com/Title-${hex}`],
    [`https://notion.so.evil.example/Title-${hex}`],
    [`https://www.notion.so/workspace/Title-${hex}0`],
    [`https://www.notion.so/`],
    ["https://www.notion.so/workspace/Just-a-title"],
    [`ftp://www.notion.so/Title-${hex}`],
    [`javascript:alert('${hex}')`]
  ])("finds none in %s", (input) => {
    expect(notionPageIdFrom(input)).toBeUndefined()
  })
})
