// API keys made in the console, over real HTTP: shown once (no-store), listed with who made them,
// working over the service's REST API, refused (401) within the key cache's 5 s once revoked; and a
// key past its expiry refused like an unknown one.
import { issueApiKey } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { type Person, workspaceWithOwner } from "../support/console.js"
import { openStorage, storageTargets } from "../support/storage.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.each(storageTargets(["memory", "pglite"]))("console API keys on $name", ({ name, skip }) => {
  let app: RunningApp
  let owner: Person
  let tenantId: string
  let drop = async () => {}
  beforeAll(async () => {
    if (skip) return
    const opened = await openStorage(name)
    drop = opened.drop
    app = await startApp({ storage: opened.storage })
    const made = await workspaceWithOwner(app, "Keys")
    owner = made.owner
    tenantId = made.tenant.id
  })
  afterAll(async () => {
    if (skip) return
    await app.close()
    await drop()
  })

  const create = async (fields: Readonly<Record<string, string | ReadonlyArray<string>>>) => {
    const { csrf } = await owner.client.page("/console/keys")
    const response = await owner.client.post("/console/keys", { csrf, ...fields })
    const html = await response.text()
    return { response, html, key: /<code id="new-key">([^<]+)<\/code>/.exec(html)?.[1] }
  }

  it("creates a sharing key that works over REST, then is refused within 5 s of revoking", async () => {
    const { response, html, key } = await create({ name: "ci sharing", service: "sharing", scopes: ["read"] })
    expect(response.status).toBe(201)
    expect(response.headers.get("cache-control")).toContain("no-store")
    expect(key).toMatch(/^folio_/)
    expect(html).toContain(
      `curl -H &quot;Authorization: Bearer ${key}&quot; ${app.config.publicOrigin}/share/api/v1/me`
    )
    const me = await fetch(`${app.origin}/share/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })
    expect(me.status).toBe(200)
    // The list shows it, by prefix and with its creator; never the key again.
    const list = await owner.client.page("/console/keys")
    expect(list.html).toContain("ci sharing")
    expect(list.html).toContain(owner.email)
    expect(list.html).not.toContain(key ?? "-")
    const id =
      /\/console\/keys\/([^/]+)\/revoke" class="inline"><input type="hidden" name="csrf" value="[^"]*"><button type="submit" class="danger" aria-label="Revoke ci sharing"/.exec(
        list.html
      )?.[1]
    const revoked = await owner.client.post(`/console/keys/${id}/revoke`, { csrf: list.csrf })
    expect(revoked.status).toBe(303)
    const started = Date.now()
    let status = 200
    while (status !== 401 && Date.now() - started < 6_000) {
      status = (await fetch(`${app.origin}/share/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }))
        .status
      if (status !== 401) await sleep(250)
    }
    expect(status).toBe(401)
    expect(Date.now() - started).toBeLessThan(5_500)
  })

  it("creates a forms key with the chosen scopes only (the other service's boxes ignored)", async () => {
    const { response, key } = await create({
      name: "ci forms",
      service: "forms",
      scopes: ["forms:read", "read", "delete"]
    })
    expect(response.status).toBe(201)
    const list = await fetch(`${app.origin}/forms/api/v1/forms`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(list.status).toBe(200)
    const page = await owner.client.page("/console/keys")
    expect(page.html).toMatch(
      /ci forms<\/td>\s*<td><code>[^<]+<\/code><\/td>\s*<td>Forms<\/td>\s*<td>forms:read<\/td>/
    )
  })

  it("re-renders the form with the reason when a key cannot be made", async () => {
    const noScopes = await create({ name: "nothing", service: "sharing" })
    expect(noScopes.response.status).toBe(422)
    expect(noScopes.html).toContain('role="alert"')
    expect(noScopes.key).toBeUndefined()
    const past = await create({ name: "old", service: "sharing", scopes: ["read"], expiresAt: "2001-01-01" })
    expect(past.response.status).toBe(422)
    expect(past.html).toContain("expiry must be a future date")
    const badDate = await create({ name: "odd", service: "sharing", scopes: ["read"], expiresAt: "tomorrow" })
    expect(badDate.response.status).toBe(422)
  })

  it("shows an expiry date given in the form", async () => {
    const next = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10)
    const { response } = await create({
      name: "expiring",
      service: "sharing",
      scopes: ["read"],
      expiresAt: next
    })
    expect(response.status).toBe(201)
    // Works through that day (UTC): refused from the next day's start, which the list shows.
    const refusedFrom = new Date(Date.parse(`${next}T00:00:00Z`) + 86_400_000).toISOString()
    expect((await owner.client.page("/console/keys")).html).toContain(`datetime="${refusedFrom}"`)
  })

  it("refuses a key past its expiry like an unknown key", async () => {
    const issued = await app.run(
      issueApiKey({
        tenantId,
        service: "sharing",
        name: "short-lived",
        scopes: ["read"],
        expiresAt: new Date(Date.now() + 1_500)
      })
    )
    const call = () =>
      fetch(`${app.origin}/share/api/v1/me`, { headers: { authorization: `Bearer ${issued.plaintext}` } })
    expect((await call()).status).toBe(200)
    await sleep(1_700)
    const refused = await call()
    expect(refused.status).toBe(401)
    const unknown = await fetch(`${app.origin}/share/api/v1/me`, {
      headers: { authorization: `Bearer ${issued.plaintext.slice(0, -4)}AAAA` }
    })
    expect((await refused.json()) as unknown).toEqual((await unknown.json()) as unknown)
  })
})
