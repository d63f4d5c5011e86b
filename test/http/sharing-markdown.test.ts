// The sharing service's Markdown pages: what markdown-it and the sanitizer keep of ordinary content
// (tables, code, links with their rel, images), what they never let through from a hostile corpus
// (scripts, event handlers, javascript: and data:text/html URLs, SVG and MathML tricks, frames,
// forms, style attributes), in Markdown and in raw HTML alike; and the complete documents: the CSP
// allows exactly the page's stylesheet, every text is escaped, the OpenGraph and Twitter tags, the
// password form and the state pages.
import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  LINK_REL,
  markdownExcerpt,
  renderMarkdown,
  sanitizePageHtml
} from "../../packages/adapters-http/src/sharing/pages/markdown.js"
import {
  PASSWORD_FIELD,
  previewTags,
  renderExpiredPage,
  renderMarkdownPage,
  renderNotFoundPage,
  renderNotStartedPage,
  renderPasswordPage,
  renderViewLimitPage,
  SHARING_PAGE_CSP,
  SHARING_PAGE_HEADERS
} from "../../packages/adapters-http/src/sharing/pages/page.js"

const md = (source: string) => renderMarkdown(source).text

// The sanitizer's output is serialised by it (every attribute quoted, text escaped), so these simple
// scans read it exactly: every tag and every attribute it emits.
// biome-ignore format: a list of names
const TAGS = new Set([
  "h1", "h2", "h3", "h4", "h5", "h6", "p", "br", "hr", "blockquote", "ul", "ol", "li", "dl", "dt",
  "dd", "strong", "b", "em", "i", "u", "s", "del", "ins", "mark", "small", "sub", "sup", "abbr", "kbd",
  "samp", "var", "q", "cite", "code", "pre", "a", "img", "figure", "figcaption", "table", "caption",
  "thead", "tbody", "tfoot", "tr", "th", "td", "details", "summary", "span", "div"
])
// biome-ignore format: a list of names
const ATTRIBUTES = new Set([
  "href", "title", "rel", "src", "alt", "width", "height", "start", "reversed", "value", "colspan",
  "rowspan", "scope", "class", "cite", "open"
])

interface Tag {
  readonly name: string
  readonly attributes: ReadonlyArray<readonly [string, string]>
}
const tagsOf = (markup: string): ReadonlyArray<Tag> =>
  [...markup.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)].map((m) => ({
    name: (m[1] ?? "").toLowerCase(),
    attributes: [...(m[2] ?? "").matchAll(/([^\s=/>]+)(?:="([^"]*)")?/g)].map(
      (a) => [(a[1] ?? "").toLowerCase(), a[2] ?? ""] as const
    )
  }))

const URL_OK = /^(?:https?:|mailto:|\/(?!\/)|#|[^:/?#]*(?:[/?#]|$))/i
const DATA_IMAGE_OK = /^data:image\/(?:png|jpe?g|gif|webp|avif);base64,/i

/** Nothing in the markup could run script or load anything but an image, whatever the input was. */
const expectInert = (markup: string) => {
  expect(markup).not.toMatch(
    /<\s*\/?\s*(script|iframe|frame|object|embed|form|input|button|svg|math|style|link|meta|base|template|noscript|textarea|select)\b/i
  )
  for (const tag of tagsOf(markup)) {
    expect(TAGS.has(tag.name), `tag <${tag.name}>`).toBe(true)
    for (const [name, value] of tag.attributes) {
      expect(ATTRIBUTES.has(name), `attribute ${name} on <${tag.name}>`).toBe(true)
      expect(name.startsWith("on")).toBe(false)
      const decoded = value
        .replace(/&amp;/g, "&")
        .replace(/&#(\d+);/g, (_, d) => String.fromCharCode(Number(d)))
      if (name === "href" || name === "cite") expect(decoded, `${name} on <${tag.name}>`).toMatch(URL_OK)
      if (name === "src") {
        if (/^\s*data:/i.test(decoded)) expect(decoded).toMatch(DATA_IMAGE_OK)
        else expect(decoded).toMatch(URL_OK)
      }
    }
    if (tag.name === "a") expect(tag.attributes).toContainEqual(["rel", LINK_REL])
  }
  // Text may say anything (escaped): the markup may not.
  const markupOnly = (markup.match(/<[^>]*>/g) ?? []).join("")
  expect(markupOnly).not.toMatch(/javascript\s*:/i)
  expect(markupOnly).not.toMatch(/vbscript\s*:/i)
  expect(markupOnly).not.toMatch(/data:text\/html/i)
  expect(markupOnly).not.toMatch(/\sstyle=/i)
}

const PNG_DATA =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

/** Hostile input, in Markdown and as raw HTML inside Markdown. */
const HOSTILE: ReadonlyArray<string> = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
  "text <script>alert(1)</script> inline",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<img src=x onerror=alert(1)>",
  '<img src="x" ONERROR="alert(1)">',
  "<img src=x onerror\n=alert(1)>",
  '<img src="javascript:alert(1)">',
  '<img src="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<img srcset="javascript:alert(1) 1x" src="https://x.example/a.png">',
  "[click](javascript:alert(1))",
  "[click](JaVaScRiPt:alert(1))",
  "[click](javascript&#58;alert(1))",
  "[click](&#106;avascript:alert(1))",
  "[click](vbscript:msgbox(1))",
  "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
  "![x](javascript:alert(1))",
  "![x](data:text/html,<script>alert(1)</script>)",
  "<javascript:alert(1)>",
  "[ref]\n\n[ref]: javascript:alert(1)",
  '<a href="javascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="java&#x09;script:alert(1)">x</a>',
  '<a href="jav&#x0A;ascript:alert(1)">x</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">x</a>',
  '<a href="data:text/html,<script>alert(1)</script>">x</a>',
  '<a href="//evil.example/">protocol-relative</a>',
  '<a href="https://ok.example" onclick="alert(1)" onmouseover="alert(1)" target="_blank" rel="opener">x</a>',
  "<svg onload=alert(1)><circle r=10 /></svg>",
  '<svg><a xlink:href="javascript:alert(1)"><text x="20" y="20">x</text></a></svg>',
  "<svg><script>alert(1)</script></svg>",
  "<svg><animate onbegin=alert(1) attributeName=x dur=1s>",
  '<svg><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject></svg>',
  "<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>",
  '<math><maction actiontype="statusline" xlink:href="javascript:alert(1)">x</maction></math>',
  '<iframe src="https://evil.example"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="https://evil.example/x.swf"></object><embed src="https://evil.example/x.swf">',
  '<form action="https://evil.example"><input name="password" type="password"><button>Log in</button></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<p style="background:url(javascript:alert(1))">styled</p>',
  "<style>body{background:url(https://evil.example/track)}</style>",
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<base href="https://evil.example/">',
  '<div onclick="alert(1)">div</div>',
  '<details open ontoggle="alert(1)"><summary>s</summary></details>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  "<template><script>alert(1)</script></template>",
  "<textarea><img src=x onerror=alert(1)></textarea>",
  "<!--<img src=x onerror=alert(1)>-->",
  "<![CDATA[<img src=x onerror=alert(1)>]]>",
  '<q cite="javascript:alert(1)">q</q>',
  '<a href="https://ok.example/"\nonclick=alert(1)>multi\nline</a>',
  "```html\n<script>alert(1)</script>\n```",
  "`<img src=x onerror=alert(1)>`",
  '<code class="x" onclick="alert(1)">c</code>',
  '<table><tr><td style="text-align:center;background:url(x)" onclick="alert(1)">td</td></tr></table>',
  '<img src="https://x.example/a.png" style="position:fixed;top:0" width="10" height="10">'
]

describe("renderMarkdown: a hostile corpus", () => {
  it.each(HOSTILE)("renders %j inert", (source) => {
    expectInert(md(source))
  })

  it.each(HOSTILE)("sanitizes %j given straight as HTML", (source) => {
    expectInert(sanitizePageHtml(source))
  })

  it("keeps the text around what it removes, and shows code as text", () => {
    expect(md("before <script>alert(1)</script> after")).toBe("<p>before  after</p>\n")
    expect(md("```html\n<script>alert(1)</script>\n```")).toBe(
      '<pre><code class="language-html">&lt;script&gt;alert(1)&lt;/script&gt;\n</code></pre>\n'
    )
    expect(md("`<img src=x onerror=alert(1)>`")).toBe(
      "<p><code>&lt;img src=x onerror=alert(1)&gt;</code></p>\n"
    )
  })

  it("keeps a link's text without its refused href", () => {
    expect(md('<a href="javascript:alert(1)">x</a>')).toBe(`<p><a rel="${LINK_REL}">x</a></p>\n`)
    // markdown-it refuses the link itself and leaves the source as text.
    expect(md("[click](javascript:alert(1))")).toBe("<p>[click](javascript:alert(1))</p>\n")
  })

  it("drops an image whose source is refused, and keeps a raster data image", () => {
    expect(md('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="svg">')).toBe("")
    expect(md('<img src="javascript:alert(1)" alt="js">')).toBe("")
    expect(md(`![dot](${PNG_DATA})`)).toBe(`<p><img src="${PNG_DATA}" alt="dot" /></p>\n`)
  })
})

describe("renderMarkdown: ordinary content", () => {
  it("renders CommonMark with GFM tables, alignment as classes, strikethrough and autolinks", () => {
    const out = md(
      "# Title\n\nSome **bold**, _em_ and ~~gone~~.\n\n| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n\nSee https://example.com/x?y=1&z=2 or <mailto:me@example.com>."
    )
    expect(out).toContain("<h1>Title</h1>")
    expect(out).toContain("<strong>bold</strong>, <em>em</em> and <s>gone</s>")
    expect(out).toContain(
      '<th class="align-left">a</th>\n<th class="align-center">b</th>\n<th class="align-right">c</th>'
    )
    expect(out).toContain('<td class="align-right">3</td>')
    expect(out).toContain(
      `<a href="https://example.com/x?y=1&amp;z=2" rel="${LINK_REL}">https://example.com/x?y=1&amp;z=2</a>`
    )
    expect(out).toContain(`<a href="mailto:me@example.com" rel="${LINK_REL}">mailto:me@example.com</a>`)
    expectInert(out)
  })

  it("keeps code blocks with their language class, lists, quotes and images", () => {
    const out = md(
      '```ts\nconst a = 1 < 2\n```\n\n1. one\n2. two\n\n> quoted\n\n![alt text](https://img.example/a.png "A title")'
    )
    expect(out).toContain('<pre><code class="language-ts">const a = 1 &lt; 2\n</code></pre>')
    expect(out).toContain("<ol>\n<li>one</li>\n<li>two</li>\n</ol>")
    expect(out).toContain("<blockquote>\n<p>quoted</p>\n</blockquote>")
    expect(out).toContain('<img src="https://img.example/a.png" alt="alt text" title="A title" />')
  })

  it("gives every link the rel, replacing the author's, and keeps relative and fragment links", () => {
    expect(md('<a href="https://ok.example" rel="opener" target="_blank">x</a>')).toBe(
      `<p><a href="https://ok.example" rel="${LINK_REL}">x</a></p>\n`
    )
    expect(md("[a](/s/other) [b](#part)")).toBe(
      `<p><a href="/s/other" rel="${LINK_REL}">a</a> <a href="#part" rel="${LINK_REL}">b</a></p>\n`
    )
  })

  it("keeps allowed raw HTML (details, kbd, sub) and only the allowed classes", () => {
    expect(
      md("<details><summary>More</summary>\n\nHidden <kbd>Ctrl</kbd> H<sub>2</sub>O\n\n</details>")
    ).toBe("<details><summary>More</summary>\n<p>Hidden <kbd>Ctrl</kbd> H<sub>2</sub>O</p>\n</details>")
    expect(md('<code class="language-js evil">x</code> <span class="x">y</span>')).toBe(
      '<p><code class="language-js">x</code> <span>y</span></p>\n'
    )
  })
})

describe("markdownExcerpt", () => {
  it("is the paragraphs' plain text, without markup or raw HTML tags", () => {
    expect(markdownExcerpt("# Title\n\nSome *text* with `code` and <b>html</b>.\n\nSecond\nline.")).toBe(
      "Some text with code and html. Second line."
    )
  })

  it("falls back to every text when there is no paragraph, and cuts on a word", () => {
    expect(markdownExcerpt("# Only a heading")).toBe("Only a heading")
    const cut = markdownExcerpt("word ".repeat(100), 50)
    expect(cut.length).toBeLessThanOrEqual(50)
    expect(cut).toMatch(/^(word )+word…$/)
  })
})

const styleOf = (document: string): string => {
  const m = /<style>([\s\S]*?)<\/style>/.exec(document)
  expect(m).not.toBeNull()
  return m?.[1] ?? ""
}

const statePages = {
  password: renderPasswordPage({ action: "/s/abc" }),
  notStarted: renderNotStartedPage(),
  expired: renderExpiredPage(),
  viewLimit: renderViewLimitPage(),
  notFound: renderNotFoundPage()
}

describe("the page documents", () => {
  const page = renderMarkdownPage({
    title: `Title <script>alert("t")</script> & "quotes"`,
    markdown: "Hello **world**.\n\n<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>",
    description: `Desc "><script>alert(1)</script>`,
    url: "https://folio.example/s/abc?x=1&y=2",
    imageUrl: "https://img.example/og.png?a=1&b=2"
  }).text

  it("has a strict CSP that allows exactly its own stylesheet, by hash, and no script", () => {
    expect(SHARING_PAGE_CSP.split("; ")).toEqual([
      "default-src 'none'",
      "img-src 'self' https: data:",
      expect.stringMatching(/^style-src 'sha256-[A-Za-z0-9+/]{43}='$/),
      "form-action 'self'",
      "base-uri 'none'",
      "frame-ancestors 'none'"
    ])
    expect(SHARING_PAGE_CSP).not.toContain("script-src")
    expect(SHARING_PAGE_CSP).not.toContain("unsafe")
    for (const doc of [page, ...Object.values(statePages).map((p) => p.text)]) {
      const hash = createHash("sha256").update(styleOf(doc), "utf8").digest("base64")
      expect(SHARING_PAGE_CSP).toContain(`'sha256-${hash}'`)
      expect(doc.match(/<style>/g)).toHaveLength(1)
      expect(doc).not.toMatch(/<script/i)
      expect(doc).not.toMatch(/\son[a-z]+=/i)
      expect(doc).not.toMatch(/\sstyle=/i)
    }
    expect(SHARING_PAGE_HEADERS).toEqual({
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": SHARING_PAGE_CSP,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer"
    })
  })

  it("is a mobile-friendly document with the escaped title as heading", () => {
    expect(page.startsWith('<!doctype html>\n<html lang="en"><head><meta charset="utf-8">')).toBe(true)
    expect(page).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">')
    const title = "Title &lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;"
    expect(page).toContain(`<title>${title}</title>`)
    expect(page).toContain(`<h1 class="page-title">${title}</h1>`)
    expect(page).toContain('<div class="md"><p>Hello <strong>world</strong>.</p>\n')
    expect(page).toContain('<img src="x" alt="" /></div></article></main></body></html>')
    expect(page).not.toContain("robots")
  })

  it("carries OpenGraph and Twitter tags, escaped", () => {
    const desc = "Desc &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"
    for (const tag of [
      `<meta name="description" content="${desc}">`,
      '<link rel="canonical" href="https://folio.example/s/abc?x=1&amp;y=2">',
      '<meta property="og:type" content="article">',
      '<meta property="og:site_name" content="Folio">',
      `<meta property="og:title" content="Title &lt;script&gt;alert(&quot;t&quot;)&lt;/script&gt; &amp; &quot;quotes&quot;">`,
      `<meta property="og:description" content="${desc}">`,
      '<meta property="og:url" content="https://folio.example/s/abc?x=1&amp;y=2">',
      '<meta property="og:image" content="https://img.example/og.png?a=1&amp;b=2">',
      '<meta name="twitter:card" content="summary_large_image">',
      `<meta name="twitter:description" content="${desc}">`,
      '<meta name="twitter:image" content="https://img.example/og.png?a=1&amp;b=2">'
    ])
      expect(page).toContain(tag)
  })

  it("describes a page by its text when the owner gave no description, and leaves out what is missing", () => {
    const doc = renderMarkdownPage({
      title: "T",
      markdown: "# Heading\n\nFirst *paragraph*.",
      url: "https://folio.example/s/t",
      imageUrl: "javascript:alert(1)",
      lang: "fr-CA",
      noindex: true
    }).text
    expect(doc).toContain('<html lang="fr-CA">')
    expect(doc).toContain('<meta property="og:description" content="First paragraph.">')
    expect(doc).toContain('<meta name="twitter:card" content="summary">')
    expect(doc).not.toContain("og:image")
    expect(doc).not.toContain("javascript")
    expect(doc).toContain('<meta name="robots" content="noindex,nofollow">')
    expect(renderMarkdownPage({ title: "T", markdown: "x", url: "u", lang: '"><script>' }).text).toContain(
      '<html lang="en">'
    )
    expect(previewTags({ title: "T", url: "https://a.example/", description: "  " }).text).not.toContain(
      "description"
    )
  })

  it("asks for the password with a POST form and names nothing of the resource", () => {
    const doc = statePages.password.text
    expect(doc).toContain('<form class="unlock" method="post" action="/s/abc">')
    expect(doc).toContain(
      `<input id="password" type="password" name="${PASSWORD_FIELD}" autocomplete="current-password" required autofocus>`
    )
    expect(doc).toContain('<label for="password">Password</label>')
    expect(doc).toContain('<button type="submit">Open</button>')
    expect(doc).toContain('<meta name="robots" content="noindex,nofollow">')
    expect(doc).not.toContain("og:")
    expect(doc).not.toContain('role="alert"')
    const wrong = renderPasswordPage({ action: '/s/a"b', error: "wrong_password" }).text
    expect(wrong).toContain('action="/s/a&quot;b"')
    expect(wrong).toContain('aria-invalid="true" aria-describedby="password-error"')
    expect(wrong).toContain(
      '<p id="password-error" class="error" role="alert">That password is not right. Try again.</p>'
    )
    expect(renderPasswordPage({ action: "/s/a", error: "rate_limited" }).text).toContain("Too many attempts")
  })

  it("says clearly why a resource is not shown, in the same look", () => {
    const headings = Object.fromEntries(
      Object.entries(statePages).map(([k, p]) => [k, /<h1>([^<]*)<\/h1>/.exec(p.text)?.[1]])
    )
    expect(headings).toEqual({
      password: "Password required",
      notStarted: "Not available yet",
      expired: "This page has expired",
      viewLimit: "This page is no longer available",
      notFound: "Page not found"
    })
    for (const p of Object.values(statePages)) {
      expect(p.text).toContain('<section class="message">')
      expect(p.text).toContain('<meta name="robots" content="noindex,nofollow">')
      expect(styleOf(p.text)).toBe(styleOf(page))
    }
  })
})
