// The console's pages as a browser receives them: a nonce CSP whose nonce the one script carries, no
// inline handlers, the hashed script and stylesheet served immutable from /console/_assets/, and
// the console's own failures (unknown page, oversized post) as HTML pages, not the APIs' JSON.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { clientFor, type Person, workspaceWithOwner } from "../support/console.js"

describe("console pages", () => {
  let app: RunningApp
  let owner: Person
  beforeAll(async () => {
    app = await startApp()
    owner = (await workspaceWithOwner(app, "Pages")).owner
  })
  afterAll(() => app.close())

  it("carries a nonce CSP, its nonce on the one script, and no inline handlers", async () => {
    for (const path of [
      "/console/keys",
      "/console/apps",
      "/console/members",
      "/console/settings",
      "/console/audit",
      "/console/account"
    ]) {
      const response = await owner.client.get(path)
      expect(response.status).toBe(200)
      const csp = response.headers.get("content-security-policy") ?? ""
      const nonce = /script-src 'nonce-([^']+)' 'self'/.exec(csp)?.[1]
      expect(nonce).toBeDefined()
      expect(csp).toContain("frame-ancestors 'none'")
      const html = await response.text()
      const scripts = [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0])
      expect(scripts).toHaveLength(1)
      expect(scripts[0]).toContain(`nonce="${nonce}"`)
      expect(scripts[0]).toMatch(/src="\/console\/_assets\/console\.[A-Za-z0-9_-]{12}\.js"/)
      expect(html).not.toMatch(/\son[a-z]+=/i)
      expect(html).not.toMatch(/style="/)
      expect(response.headers.get("cache-control")).toBe("no-store")
      expect(html).toContain('aria-current="page"')
    }
  })

  it("serves the hashed script and stylesheet, immutable", async () => {
    const html = await (await clientFor(app).get("/sign-in")).text()
    const script = /src="(\/console\/_assets\/console\.[^"]+\.js)"/.exec(html)?.[1] ?? ""
    const style = /href="(\/console\/_assets\/console\.[^"]+\.css)"/.exec(html)?.[1] ?? ""
    for (const [path, type] of [
      [script, "text/javascript"],
      [style, "text/css"]
    ] as const) {
      const response = await fetch(`${app.origin}${path}`)
      expect(response.status).toBe(200)
      expect(response.headers.get("content-type")).toContain(type)
      expect(response.headers.get("cache-control")).toContain("immutable")
      expect((await response.text()).length).toBeGreaterThan(500)
    }
    expect((await fetch(`${app.origin}/console/_assets/console.nope.js`)).status).toBe(404)
  })

  it("answers an unknown console page and an oversized post as HTML pages", async () => {
    const missing = await owner.client.get("/console/nothing-here")
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toContain("text/html")
    const { csrf } = await owner.client.page("/console/keys")
    const huge = await owner.client.post("/console/keys", { csrf, name: "x".repeat(100_000) })
    expect(huge.status).toBe(413)
    expect(huge.headers.get("content-type")).toContain("text/html")
  })

  it("labels every input of the signed-out pages", async () => {
    for (const path of ["/sign-in", "/reset-password"]) {
      const html = await (await clientFor(app).get(path)).text()
      for (const [, id] of html.matchAll(/<input id="([^"]+)"/g))
        expect(html).toContain(`<label for="${id}">`)
    }
  })
})
