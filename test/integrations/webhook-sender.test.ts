// The outbound webhook client against a local HTTPS receiver: a signed POST delivered over TLS to
// a trusted certificate; loopback refused unless allowed (also behind a name, whatever form the name
// resolves to); every failure before a TLS session reads the same (no port scanner); no redirect
// followed; a receiver that does not answer times out; only an excerpt of the answer kept.
import { createServer, type Server } from "node:net"
import type { AddressInfo } from "node:net"
import { type HttpsWebhookSenderOptions, makeHttpsWebhookSender } from "@folio/adapters-integrations"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHttpsReceiver } from "../support/https-receiver.js"

describe("HttpsWebhookSender", () => {
  let receiver: Awaited<ReturnType<typeof startHttpsReceiver>>
  beforeAll(async () => {
    receiver = await startHttpsReceiver()
  })
  afterAll(() => receiver.close())

  const send = (url: string, options: HttpsWebhookSenderOptions = {}, timeoutMs = 2000) =>
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

  it("refuses loopback (by address and by name) unless allowed, and a name resolving to any forbidden form", async () => {
    const before = receiver.received.length
    expect((await send(receiver.url, { allowLoopback: false })).error).toBe("could not deliver")
    const byName = receiver.url.replace("127.0.0.1", "localhost")
    expect((await send(byName, { allowLoopback: false })).error).toBe("could not deliver")
    expect((await send("https://10.1.2.3/hook")).error).toBe("could not deliver")
    expect((await send("https://[::ffff:a00:1]/hook")).error).toBe("could not deliver")
    expect((await send("http://127.0.0.1/hook")).error).toBe("not https")
    // A name whose answer holds a forbidden address in any spelling is refused whole, even with
    // loopback allowed (a mapped private address is not loopback).
    for (const answer of [
      ["::ffff:c0a8:1"],
      ["0:0:0:0:0:ffff:169.254.169.254"],
      ["2002:a00:1::"],
      ["64:ff9b::a00:1"],
      ["93.184.216.34", "::ffff:a9fe:a9fe"]
    ]) {
      const resolveName = async () =>
        answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
      expect((await send(byName, { resolveName })).error, answer.join()).toBe("could not deliver")
    }
    expect(receiver.received.length).toBe(before)
    // Loopback in its IPv4-mapped spelling is loopback: with it allowed, the pinned address is dialled.
    const mappedLoopback = async () => [{ address: "::ffff:7f00:1", family: 6 }]
    expect(await send(byName, { resolveName: mappedLoopback })).toMatchObject({ ok: true })
    expect(receiver.received.length).toBe(before + 1)
  })

  it("answers every failure before a TLS session the same: refused, reset, silent, bad TLS, unknown name", async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, "127.0.0.1", () => {
        const port = (probe.address() as AddressInfo).port
        probe.close(() => resolve(port))
      })
    })
    const tcp = async (onConnection: (socket: import("node:net").Socket) => void): Promise<Server> => {
      const server = createServer(onConnection)
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
      return server
    }
    const resets = await tcp((socket) => socket.resetAndDestroy())
    const silent = await tcp(() => {})
    const portOf = (server: Server) => (server.address() as AddressInfo).port
    try {
      const outcomes = [
        await send(`https://127.0.0.1:${closedPort}/hook`),
        await send(`https://127.0.0.1:${portOf(resets)}/hook`),
        await send(`https://127.0.0.1:${portOf(silent)}/hook`, {}, 300),
        await send(receiver.url, { ca: undefined }),
        await send("https://no-such-host.invalid/hook"),
        await send("https://[::ffff:7f00:1]:5432/", { allowLoopback: false })
      ]
      for (const outcome of outcomes)
        expect(outcome).toMatchObject({
          ok: false,
          statusCode: null,
          error: "could not deliver",
          excerpt: null
        })
    } finally {
      silent.close()
      resets.close()
    }
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
