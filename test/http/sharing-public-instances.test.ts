import { ResourceRepository } from "@folio/domain"
import { Effect, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { RunningApp } from "../support/app.js"
import { newWorkspaceKey } from "../support/keys.js"
import { startTwoInstances } from "../support/two-instances.js"
import { nextResource, resource } from "../storage/fixtures.js"
import { TEST_DATABASE_URL } from "../storage/targets.js"

const until = async (what: string, check: () => Promise<boolean>, ms = 5_000) => {
  const end = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe.skipIf(TEST_DATABASE_URL === undefined)("public serving on two instances [postgres]", () => {
  let a: RunningApp
  let b: RunningApp
  let close = async () => {}
  beforeAll(async () => {
    ;({ a, b, close } = await startTwoInstances())
  }, 60_000)
  afterAll(() => close())

  it("drops a warm link everywhere on update and delete, and adds up both instances' views", async () => {
    const tenant = (await newWorkspaceKey(a, ["read"], "sharing")).workspaceId
    const r = resource(tenant, "link", {
      data: { ...resource(tenant, "link").data, redirectRules: null, testVariants: null, fallbackUrl: null }
    })
    await a.run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(r)))
    // Every redirect answered is a counted view (each request is a new visitor), the polls for the
    // rename included: B may still redirect the old slug until the invalidation reaches it.
    let redirects = 0
    const location = async (app: RunningApp, slug: string) => {
      const res = await fetch(`${app.origin}/s/${slug}`, { redirect: "manual" })
      if (res.status === 302) redirects++
      return res.status === 302 ? res.headers.get("location") : String(res.status)
    }
    expect(await location(b, r.slug)).toBe("https://example.com/launch")
    expect(await location(a, r.slug)).toBe("https://example.com/launch")

    const moved = nextResource(r, {
      slug: `${r.slug}-moved`,
      data: { ...r.data, targetUrl: "https://example.com/moved" }
    })
    expect(await a.run(Effect.flatMap(ResourceRepository, (repo) => repo.update(tenant, moved)))).toBe(
      "updated"
    )
    await until("the rename on B", async () => (await location(b, r.slug)) === "404")
    expect(await location(b, moved.slug)).toBe("https://example.com/moved")

    // Views on both instances (those above, and 5 new visitors each here) reach the row.
    await Promise.all([a, b].flatMap((app) => Array.from({ length: 5 }, () => location(app, moved.slug))))
    await until(`${redirects} views`, async () => {
      const stored = await a.run(Effect.flatMap(ResourceRepository, (repo) => repo.get(tenant, r.id)))
      return Option.getOrThrow(stored).viewCount === redirects
    })
    expect(redirects).toBeGreaterThanOrEqual(13)

    await a.run(Effect.flatMap(ResourceRepository, (repo) => repo.softDelete(tenant, r.id, new Date())))
    await until("the delete on B", async () => (await location(b, moved.slug)) === "404")
  })
})
