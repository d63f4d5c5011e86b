// The outbound webhook client against a local HTTPS receiver: a signed POST delivered over TLS to
// a trusted certificate; loopback refused unless allowed (also behind a name); no redirect followed;
// a receiver that does not answer times out; only an excerpt of the answer kept.
import { makeHttpsWebhookSender } from "@folio/adapters-storage"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHttpsReceiver } from "../support/https-receiver.js"

describe("HttpsWebhookSender", () => {
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>
  beforeAll(async () => {
    receiver = await startHttpsReceiver()
  })
  afterAll(() => receiver.close())

  const send = (url: string, options: { allowLoopback?: boolean; ca?: string } = {}, timeoutMs = 2000) =>
    Effect.runPromise(
      makeHttpsWebhookSender({ allowLoopback: true, ca: receiver.ca, ...options }).send({
        url,
        headers: { "content-type": "application/json", "x-test": "1" },
        body: '{"hello":"world"}',
        timeoutMs
      })
    )

  it("posts the body and headers and answers the status, latency and an excerpt", async () => {
    receiver.answerWith(() => ({ status: 202, body: "x".repeat(10_000) }))
    const response = await send(receiver.url)
    expect(response).toMatchObject({ ok: true, statusCode: 202, error: null })
    expect(response.excerpt?.length).toBe(256)
    const got = receiver.received.at(-1)
    expect(got?.body).toBe('{"hello":"world"}')
    expect(got?.headers["x-test"]).toBe("1")
  })

  it("refuses loopback (by address and by name) unless allowed, and untrusted certificates", async () => {
    const before = receiver.received.length
    expect((await send(receiver.url, { allowLoopback: false })).error).toBe("address not allowed")
    const byName = receiver.url.replace("127.0.0.1", "localhost")
    expect((await send(byName, { allowLoopback: false })).error).toBe("address not allowed")
    expect((await send("https://10.1.2.3/hook")).error).toBe("address not allowed")
    expect((await send("http://127.0.0.1/hook")).error).toBe("not https")
    expect(receiver.received.length).toBe(before)
    const untrusted = await Effect.runPromise(
      makeHttpsWebhookSender({ allowLoopback: true }).send({
        url: receiver.url,
        headers: {},
        body: "{}",
        timeoutMs: 2000
      })
    )
    expect(untrusted).toMatchObject({ ok: false, error: "TLS handshake failed" })
  })

  it("never follows a redirect, reports error statuses, and gives up at its timeout", async () => {
    receiver.answerWith(() => ({ status: 302, headers: { location: "https://127.0.0.1:1/elsewhere" } }))
    expect(await send(receiver.url)).toMatchObject({
      ok: false,
      statusCode: 302,
      error: "redirect 302 not followed"
    })
    receiver.answerWith(() => 503)
    expect(await send(receiver.url)).toMatchObject({ ok: false, statusCode: 503, error: "status 503" })
    receiver.answerWith(() => "hang")
    const started = Date.now()
    expect(await send(receiver.url, {}, 300)).toMatchObject({
      ok: false,
      statusCode: null,
      error: "timed out"
    })
    expect(Date.now() - started).toBeLessThan(2000)
    receiver.answerWith(() => 200)
  })
})
