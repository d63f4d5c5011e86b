// No secret of a URL reaches a log line or a span attribute: an upload request's token (a path
// segment, `/u/{token}`) and signed URLs' query values (`sig`, `token`). The log half runs the built
// server as a process and reads what it writes; the span half runs the app in-process with a
// recording tracer, through the same composition (appLayer) that would wrap a real exporter.
import { rmSync } from "node:fs"
import { BlobStore } from "@folio/domain"
import { Effect, Tracer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { build, migratedDataDir, startServer } from "./process.js"

const REDACTED = "[redacted]"

const json = (origin: string, key: string, path: string, body: unknown) =>
  fetch(`${origin}/share/api/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  }).then((r) => r.json() as Promise<Record<string, unknown>>)

const uploadPost = (origin: string, token: string) => {
  const body = new FormData()
  body.append("files", new Blob(["%PDF-1.4\n%%EOF\n"]), "a.pdf")
  return fetch(`${origin}/u/${token}`, { method: "POST", body, redirect: "manual" })
}

describe("the server's log output", () => {
  const dataDir = migratedDataDir("folio-redact-")
  beforeAll(build, 240_000)
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("writes /u/{token}, signed URLs' sig and a token in a query redacted, on the routes and the fast path", async () => {
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: "info" })
    try {
      const key = /sharing: (folio_\S+)/.exec(server.stdout())?.[1] ?? ""
      const request = await json(server.origin, key, "/upload-requests", { title: "Logs" })
      const token = request.token as string
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
      expect((await fetch(`${server.origin}/u/${token}`)).status).toBe(200)
      expect((await fetch(`${server.origin}/u/${token}?sent=1`)).status).toBe(200)
      expect((await uploadPost(server.origin, token)).status).toBe(303)
      const link = await json(server.origin, key, "/resources", {
        type: "link",
        target_url: "https://example.com/"
      })
      const querySecret = "querysecret0123456789"
      // Cold (the route logs it) then warm (the node:http fast path writes its own line).
      for (let i = 0; i < 2; i++)
        expect(
          (await fetch(`${server.origin}/s/${link.slug}?token=${querySecret}`, { redirect: "manual" })).status
        ).toBe(302)
      const sig = "a".repeat(64)
      await (await fetch(`${server.origin}/blobs/x/y?exp=1&sig=${sig}`)).arrayBuffer()
      await new Promise((r) => setTimeout(r, 300))
      const out = `${server.stdout()}\n${server.stderr()}`
      const access = out.split("\n").filter((l) => l.includes('"Sent HTTP response"'))
      expect(access.filter((l) => l.includes(`/u/${REDACTED}`)).length).toBeGreaterThanOrEqual(3)
      expect(access.filter((l) => l.includes(`/s/${link.slug}`)).length).toBe(2)
      expect(out).toContain(`token=${REDACTED}`)
      for (const secret of [token, querySecret, sig]) expect(out).not.toContain(secret)
      // The token still opens the page: only what is written about it changed.
      expect((await fetch(`${server.origin}/u/${token}`)).status).toBe(200)
    } finally {
      server.child.kill("SIGTERM")
      await server.exited
    }
  })
})

describe("span attributes", () => {
  const spans: Array<Tracer.NativeSpan> = []
  let app: RunningApp
  beforeAll(async () => {
    app = await startApp({
      tracer: Tracer.make({
        span(options) {
          const span = new Tracer.NativeSpan(options)
          spans.push(span)
          return span
        }
      })
    })
  })
  afterAll(() => app.close())

  it("hold /u/{token}, sig and token redacted in url.full, url.path and url.query", async () => {
    const owner = await newWorkspaceKey(app, ["read", "write"], "sharing")
    const token = (await json(app.origin, owner.key, "/upload-requests", { title: "Spans" })).token as string
    expect((await fetch(`${app.origin}/u/${token}`)).status).toBe(200)
    expect((await uploadPost(app.origin, token)).status).toBe(303)
    const signed = await app.run(
      Effect.flatMap(Effect.service(BlobStore), (b) => b.signedUrl("some/object", { expiresInSeconds: 60 }))
    )
    const sig = new URL(signed).searchParams.get("sig") ?? ""
    expect(sig).toMatch(/^[0-9a-f]{64}$/)
    await (await fetch(signed)).arrayBuffer()
    const handoff = "handoff-secret-0123456789"
    await (await fetch(`${app.origin}/s/no-such-slug?token=${handoff}`)).arrayBuffer()
    await new Promise((r) => setTimeout(r, 100))

    const servers = spans.filter((s) => s.kind === "server")
    const paths = servers.map((s) => s.attributes.get("url.path"))
    expect(paths).toContain(`/u/${REDACTED}`)
    const upload = servers.find((s) => s.attributes.get("url.path") === `/u/${REDACTED}`)
    expect(upload?.attributes.get("url.full")).toBe(`${app.origin}/u/${REDACTED}`)
    const blob = servers.find((s) => String(s.attributes.get("url.path")).startsWith("/blobs/"))
    expect(String(blob?.attributes.get("url.query"))).toMatch(new RegExp(`sig=(REDACTED|\\${REDACTED})`))
    const lookup = servers.find((s) => s.attributes.get("url.path") === "/s/no-such-slug")
    expect(String(lookup?.attributes.get("url.full"))).toContain("token=")
    // Nothing any span holds names a secret.
    const everything = JSON.stringify(spans.map((s) => [s.name, [...s.attributes]]))
    for (const secret of [token, sig, handoff]) expect(everything).not.toContain(secret)
  })

  it("give the warm redirect (the node:http fast path) its server span through any tracer", async () => {
    const owner = await newWorkspaceKey(app, ["read", "write"], "sharing")
    const link = await json(app.origin, owner.key, "/resources", {
      type: "link",
      target_url: "https://example.com/"
    })
    // Cold: through the routes (and cached); warm: answered on node:http, its span begun there.
    for (let i = 0; i < 2; i++)
      expect(
        (await fetch(`${app.origin}/s/${link.slug}?token=t0ken-in-query`, { redirect: "manual" })).status
      ).toBe(302)
    const fast = spans.find((s) => s.kind === "server" && s.attributes.get("folio.fast_path") === true)
    expect(fast?.name).toBe("GET")
    expect(fast?.attributes.get("url.path")).toBe(`/s/${link.slug}`)
    expect(fast?.attributes.get("http.response.status_code")).toBe(302)
    expect(fast?.attributes.get("folio.service")).toBe("public")
    expect(fast?.status._tag).toBe("Ended")
    expect(JSON.stringify([...(fast?.attributes ?? [])])).not.toContain("t0ken-in-query")
  })
})
