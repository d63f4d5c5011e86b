// Pure parts of the resource use cases: which If-Match values match a resource's ETag, and how a
// simulation merges the fields sent over a saved link.
import { etagMatches, type ResourceRecordOf, resourceEtag, simulationLink } from "@folio/domain"
import { describe, expect, it } from "vitest"

const at = new Date("2025-01-01T00:00:00Z")
const saved: ResourceRecordOf<"link"> = {
  id: "0190a000-0000-7000-8000-000000000001",
  tenantId: "t",
  slug: "saved",
  title: null,
  description: null,
  visibility: "public",
  passwordHash: null,
  startsAt: null,
  expiresAt: new Date("2030-01-01T00:00:00Z"),
  labels: [],
  maxViews: 5,
  archived: false,
  pinned: false,
  viewCount: 3,
  storedBytes: 0,
  rowVersion: 4,
  createdAt: at,
  updatedAt: at,
  type: "link",
  data: {
    targetUrl: "https://example.com/t",
    redirectRules: [{ conditions: { os: ["ios"] }, target_url: "https://apps.example.com" }],
    testVariants: null,
    fallbackUrl: "https://example.com/f",
    webhookClicks: false,
    ogTitle: null,
    ogDescription: null,
    ogImageUrl: null
  }
}

describe("etagMatches", () => {
  const etag = resourceEtag(saved)
  it.each([etag, `"${etag}"`, `W/"${etag}"`, `"other", "${etag}"`, "*"])("accepts %s", (value) => {
    expect(etagMatches(value, saved)).toBe(true)
  })
  it.each(["", "other", `"${etag}x"`, resourceEtag({ ...saved, rowVersion: 3 })])("refuses %s", (value) => {
    expect(etagMatches(value, saved)).toBe(false)
  })
})

describe("simulationLink", () => {
  it("keeps every saved field that is not sent", () => {
    expect(simulationLink(saved.id, {}, saved)).toEqual({
      key: saved.id,
      target_url: "https://example.com/t",
      redirect_rules: saved.data.redirectRules,
      test_variants: [],
      fallback_url: "https://example.com/f",
      starts_at: null,
      expires_at: saved.expiresAt,
      max_views: 5,
      views: 3
    })
  })

  it("replaces what is sent, and null clears", () => {
    const link = simulationLink(
      saved.id,
      { redirect_rules: null, fallback_url: null, expires_at: null, max_views: null, views: 9 },
      saved
    )
    expect(link).toMatchObject({
      redirect_rules: [],
      fallback_url: null,
      expires_at: null,
      max_views: null,
      views: 9,
      target_url: "https://example.com/t"
    })
  })
})
