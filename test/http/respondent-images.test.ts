// The respondent page's images over real HTTP: assets uploaded with the API and used by a published
// form (image block, choice image, theme logo and cover) are served at publicImageUrl with their
// type, nosniff, a sandboxing CSP, a five-minute public cache and a strong ETag (304 on a match);
// any key the published version does not point at (another asset, a draft-only image, a stored
// non-image, a made-up path) and any form that is not published answer 404; the route spends the
// respondent budget.
import { BlobStore, FORMS_SCOPES, publicImageUrl } from "@folio/domain"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { freshRateWindow } from "../support/rate-window.js"

type Body = { data: Record<string, unknown>; error: { code: string; message: string } }

let app: RunningApp
let key: { key: string; workspaceId: string }

/** A PNG as far as the upload's sniffing goes; `n` makes each one's bytes (and ETag) distinct. */
const png = (n: number) =>
  Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, n])
const GIF = Uint8Array.from([...new TextEncoder().encode("GIF89a"), 1, 0, 1, 0, 0, 0, 0])

const api = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
    method,
    headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: (await response.json()) as Body }
}

const upload = async (formId: string, bytes: Uint8Array) => {
  const response = await fetch(`${app.origin}/forms/api/v1/forms/${formId}/assets`, {
    method: "POST",
    headers: { ...bearer(key.key), "content-type": "application/octet-stream" },
    body: bytes
  })
  expect(response.status).toBe(201)
  return ((await response.json()) as { data: { key: string } }).data.key
}

const definitionWith = (imageKey: string, choiceKey: string) => ({
  schemaVersion: 1,
  blocks: [
    { id: "blk_00000001", type: "image", imageKey, imageAlt: "A picture" },
    {
      id: "blk_00000002",
      type: "multiple_choice",
      label: "Pick one",
      options: {
        choices: [
          { id: "a", label: "A", imageKey: choiceKey, imageAlt: "Choice A" },
          { id: "b", label: "B" }
        ]
      }
    }
  ]
})

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${app.origin}${path}`, { headers })

const expectNotFound = async (response: Response) => {
  expect(response.status).toBe(404)
  const body = (await response.json()) as Body
  expect(body).toMatchObject({ ok: false, error: { code: "not_found" } })
  return body.error.message
}

/** A draft form with a block image, a choice image, a logo and a cover, each a fresh upload. */
const formWithImages = async () => {
  const created = await api("POST", "/forms", { title: "Pictures" })
  const form = created.body.data as { id: string; slug: string; settingsSignature: string }
  const keys = {
    block: await upload(form.id, png(1)),
    choice: await upload(form.id, png(2)),
    logo: await upload(form.id, GIF),
    cover: await upload(form.id, png(3)),
    unused: await upload(form.id, png(4))
  }
  const patched = await api("PATCH", `/forms/${form.id}`, {
    definition: definitionWith(keys.block, keys.choice),
    expectedDraftRevision: 1
  })
  expect(patched.status).toBe(200)
  const themed = await api("PATCH", `/forms/${form.id}/settings`, {
    settings: { theme: { logoKey: keys.logo, coverKey: keys.cover } },
    expectedSettingsSignature: form.settingsSignature
  })
  expect(themed.status).toBe(200)
  return { form, keys }
}

const publish = async (formId: string, draftRevision: number) =>
  expect(
    (await api("POST", `/forms/${formId}/publish`, { expectedDraftRevision: draftRevision })).status
  ).toBe(200)

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  key = await newWorkspaceKey(app, [...FORMS_SCOPES])
})
afterAll(() => app.close())

describe("GET /f/{slug}/images/{key}", () => {
  it("serves every image the published form points at, with its type and safe, cacheable headers", async () => {
    const { form, keys } = await formWithImages()
    await publish(form.id, 2)
    for (const [name, bytes, type] of [
      ["block", png(1), "image/png"],
      ["choice", png(2), "image/png"],
      ["logo", GIF, "image/gif"],
      ["cover", png(3), "image/png"]
    ] as const) {
      const response = await get(publicImageUrl(form.slug, keys[name]))
      expect([name, response.status]).toEqual([name, 200])
      expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes)
      expect(response.headers.get("content-type")).toBe(type)
      expect(response.headers.get("x-content-type-options")).toBe("nosniff")
      expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox")
      expect(response.headers.get("cache-control")).toBe("public, max-age=300")
      expect(response.headers.get("etag")).toMatch(/^"[A-Za-z0-9_-]{43}"$/)
    }
  })

  it("answers 304 to a matching If-None-Match, and the image again to a stale one", async () => {
    const { form, keys } = await formWithImages()
    await publish(form.id, 2)
    const url = publicImageUrl(form.slug, keys.block)
    const first = await get(url)
    const etag = first.headers.get("etag") as string
    const other = (await get(publicImageUrl(form.slug, keys.choice))).headers.get("etag")
    expect(other).not.toBe(etag)

    for (const ifNoneMatch of [etag, `W/${etag}`, `"stale", ${etag}`, "*"]) {
      const revalidated = await get(url, { "if-none-match": ifNoneMatch })
      expect([ifNoneMatch, revalidated.status]).toEqual([ifNoneMatch, 304])
      expect(revalidated.headers.get("etag")).toBe(etag)
      expect(revalidated.headers.get("cache-control")).toBe("public, max-age=300")
      expect(await revalidated.text()).toBe("")
    }
    const stale = await get(url, { "if-none-match": other as string })
    expect(stale.status).toBe(200)
    expect(new Uint8Array(await stale.arrayBuffer())).toEqual(png(1))
  })

  it("answers 404 for every key the published version does not point at", async () => {
    const { form, keys } = await formWithImages()
    await publish(form.id, 2)
    // Another asset of the same form, uploaded but never used.
    expect(await expectNotFound(await get(publicImageUrl(form.slug, keys.unused)))).toBe("image not found")
    // An image of another published form is not served under this form's slug.
    const other = await formWithImages()
    await publish(other.form.id, 2)
    await expectNotFound(await get(publicImageUrl(form.slug, other.keys.block)))
    expect((await get(publicImageUrl(other.form.slug, other.keys.block))).status).toBe(200)
    // Made-up, traversing and malformed paths.
    for (const path of [
      `/f/${form.slug}/images/${keys.block}x`,
      `/f/${form.slug}/images/../images/${keys.unused}`,
      `/f/${form.slug}/images/%2E%2E/${keys.block}`,
      `/f/${form.slug}/images/%E0%A4%A`,
      `/f/${form.slug}/images/workspaces`
    ]) {
      const response = await get(path)
      expect([path, response.status]).toEqual([path, 404])
    }
  })

  it("serves a draft's new image only once it is published, and nothing once unpublished", async () => {
    const { form, keys } = await formWithImages()
    // Not yet published: no public images at all.
    expect(await expectNotFound(await get(publicImageUrl(form.slug, keys.block)))).toBe(
      "no published form at this address"
    )
    await publish(form.id, 2)
    const added = await upload(form.id, png(9))
    const patched = await api("PATCH", `/forms/${form.id}`, {
      definition: definitionWith(keys.block, added),
      expectedDraftRevision: 2
    })
    expect(patched.status).toBe(200)
    // The draft points at `added`, the published version still at `choice`.
    await expectNotFound(await get(publicImageUrl(form.slug, added)))
    expect((await get(publicImageUrl(form.slug, keys.choice))).status).toBe(200)
    await publish(form.id, 3)
    expect((await get(publicImageUrl(form.slug, added))).status).toBe(200)
    await expectNotFound(await get(publicImageUrl(form.slug, keys.choice)))

    expect((await api("POST", `/forms/${form.id}/unpublish`, { expectedDraftRevision: 3 })).status).toBe(200)
    await expectNotFound(await get(publicImageUrl(form.slug, added)))
    await expectNotFound(await get(publicImageUrl(form.slug, keys.logo)))
  })

  it("never serves a referenced object that is not stored as an image", async () => {
    const created = await api("POST", "/forms", { title: "Legacy" })
    const form = created.body.data as { id: string; slug: string }
    // An object under an asset key that holds a page (written around the upload's sniffing).
    const htmlKey = `workspaces/${key.workspaceId}/forms/${form.id}/assets/${crypto.randomUUID()}.png`
    await app.run(
      Effect.flatMap(Effect.service(BlobStore), (blobs) =>
        blobs.put(htmlKey, {
          bytes: new TextEncoder().encode("<script>alert(1)</script>"),
          contentType: "text/html"
        })
      )
    )
    const patched = await api("PATCH", `/forms/${form.id}`, {
      definition: definitionWith(htmlKey, await upload(form.id, png(5))),
      expectedDraftRevision: 1
    })
    expect(patched.status).toBe(200)
    await publish(form.id, 2)
    expect(await expectNotFound(await get(publicImageUrl(form.slug, htmlKey)))).toBe("image not found")
  })
})

describe("the image route's budget", () => {
  it("counts against the respondent budget per client address", async () => {
    const limited = await startApp({ config: { respondentRequestsPerIp: 3 } })
    try {
      await freshRateWindow()
      const responses: Array<Response> = []
      for (let i = 0; i < 5; i++) responses.push(await fetch(`${limited.origin}/f/no-such-form/images/a.png`))
      expect(responses.map((r) => r.status)).toEqual([404, 404, 404, 429, 429])
      const last = responses[4] as Response
      expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(((await last.json()) as Body).error.code).toBe("rate_limited")
      // The image route and the JSON routes spend one budget.
      expect((await fetch(`${limited.origin}/f/no-such-form/form`)).status).toBe(429)
    } finally {
      await limited.close()
    }
  })
})
