// The webhook rules a receiver and the service rely on: the signature (what verifies, what does
// not: another body, secret or timestamp, a stale or future timestamp), which addresses an endpoint
// may never reach, and which URLs may be endpoints.
import {
  endpointUrlProblem,
  isForbiddenAddress,
  signWebhook,
  verifyWebhookSignature,
  webhookRetryDelay,
  DEFAULT_WEBHOOK_POLICY
} from "@folio/domain"
import { createHmac } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("webhook signatures", () => {
  const secret = "whsec_test"
  const now = 1_800_000_000
  const body = '{"id":"e1","type":"resource.created"}'
  const timestamp = String(now)
  const signature = signWebhook(secret, timestamp, body)

  it("is v1= and the hex HMAC-SHA256 of timestamp.body", () => {
    expect(signature).toMatch(/^v1=[0-9a-f]{64}$/)
    // Computed independently, as a receiver in any language would.
    const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")
    expect(signature).toBe(`v1=${expected}`)
  })

  it("verifies only the same body, secret and a fresh timestamp", () => {
    const ok = { secret, timestamp, signature, body, nowSeconds: now }
    expect(verifyWebhookSignature(ok)).toBe(true)
    expect(verifyWebhookSignature({ ...ok, body: `${body} ` })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, secret: "whsec_other" })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, timestamp: String(now + 1) })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, nowSeconds: now + 301 })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, nowSeconds: now - 301 })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, signature: null })).toBe(false)
    expect(verifyWebhookSignature({ ...ok, timestamp: "12abc" })).toBe(false)
    // During a rotation a receiver may be sent, or hold, two: any match verifies.
    expect(verifyWebhookSignature({ ...ok, signature: `v1=${"0".repeat(64)}, ${signature}` })).toBe(true)
  })

  it("never verifies a body it did not sign (property)", () => {
    fc.assert(
      fc.property(fc.string(), (other) => {
        fc.pre(other !== body)
        return !verifyWebhookSignature({ secret, timestamp, signature, body: other, nowSeconds: now })
      })
    )
  })
})

describe("webhook addresses and URLs", () => {
  it("refuses private, loopback, link-local, reserved and mapped addresses", () => {
    for (const a of [
      "10.0.0.1",
      "172.16.5.4",
      "172.31.255.255",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "127.0.0.1",
      "224.0.0.1",
      "::1",
      "::",
      "fd00::1",
      "fe80::1",
      "::ffff:10.0.0.1",
      "::ffff:127.0.0.1"
    ])
      expect(isForbiddenAddress(a), a).toBe(true)
    for (const a of ["93.184.216.34", "172.32.0.1", "8.8.8.8", "2606:4700::1111"])
      expect(isForbiddenAddress(a), a).toBe(false)
    expect(isForbiddenAddress("127.0.0.1", true)).toBe(false)
    expect(isForbiddenAddress("::1", true)).toBe(false)
    expect(isForbiddenAddress("10.0.0.1", true)).toBe(true)
  })

  it("takes https URLs of public hosts only", () => {
    expect(endpointUrlProblem("https://hooks.example.com/in")).toBeUndefined()
    expect(endpointUrlProblem("http://hooks.example.com/in")).toBe("must be an https:// URL")
    expect(endpointUrlProblem("https://user:pw@hooks.example.com/")).toBe("must not carry credentials")
    expect(endpointUrlProblem("https://10.0.0.8/in")).toMatch(/private or local/)
    expect(endpointUrlProblem("https://[::1]:8443/in")).toMatch(/private or local/)
    expect(endpointUrlProblem("https://localhost/in")).toMatch(/local/)
    expect(endpointUrlProblem("https://127.0.0.1:8443/in", true)).toBeUndefined()
  })

  it("retries a delivery over about a day, then gives it up", () => {
    const total = DEFAULT_WEBHOOK_POLICY.retryDelaysMs.reduce((a, b) => a + b, 0)
    expect(total / 3_600_000).toBeGreaterThan(20)
    expect(total / 3_600_000).toBeLessThan(30)
    expect(webhookRetryDelay(1, DEFAULT_WEBHOOK_POLICY)).toBe(60_000)
    expect(
      webhookRetryDelay(DEFAULT_WEBHOOK_POLICY.retryDelaysMs.length + 1, DEFAULT_WEBHOOK_POLICY)
    ).toBeUndefined()
  })
})
