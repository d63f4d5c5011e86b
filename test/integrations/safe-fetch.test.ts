// The SSRF-safe GET fetcher against a local HTTPS server (self-signed certificate): a document
// fetched as a WHATWG Response when loopback is allowed; private, link-local and loopback addresses
// (literal, or behind a name, in any spelling) refused before any connection; the checked address
// pinned; redirects not followed; bounded in time and body size; https, GET and HEAD only.
import { type SafeFetchOptions, makeSafeFetch } from "@folio/adapters-integrations"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startHttpsReceiver } from "../support/https-receiver.js"

describe("makeSafeFetch", () => {
  let server: Awaited<ReturnType<typeof startHttpsReceiver>>
  beforeAll(async () => {
    server = await startHttpsReceiver()
  })
  afterAll(() => server.close())

  const fetchWith = (options: SafeFetchOptions = {}) =>
    makeSafeFetch({ allowLoopback: true, ca: server.ca, ...options })

  /** Why a fetch was refused: its rejection's cause (the TypeError itself reads like fetch's). */
  const refusal = async (fetching: Promise<Response>): Promise<string> => {
    const error = await fetching.then(
      () => undefined,
      (e: unknown) => e
    )
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe("fetch failed")
    return ((error as TypeError).cause as Error).message
  }

  const document = { client_id: "https://client.example.test/meta.json", client_name: "Notes app" }

  it("fetches a document from a loopback server when loopback is allowed", async () => {
    server.answerWith(() => ({
      status: 200,
      headers: { "content-type": "application/json", "cache-control": "max-age=300" },
      body: JSON.stringify(document)
    }))
    const response = await fetchWith()(`${server.url}/meta.json`, {
      method: "GET",
      headers: new Headers({ accept: "application/json", "user-agent": "" }),
      redirect: "manual",
      signal: AbortSignal.timeout(2500)
    })
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toBe("application/json")
    expect(response.headers.get("cache-control")).toBe("max-age=300")
    expect(await response.json()).toEqual(document)
    expect(server.received.at(-1)?.headers.accept).toBe("application/json")
    // A URL object and a HEAD work too; a HEAD has no body.
    const head = await fetchWith()(new URL(server.url), { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.body).toBeNull()
  })

  it("refuses loopback unless allowed, by address and behind a name, without connecting", async () => {
    const before = server.received.length
    expect(await refusal(fetchWith({ allowLoopback: false })(server.url))).toBe("forbidden address")
    const byName = server.url.replace("127.0.0.1", "localhost")
    expect(await refusal(fetchWith({ allowLoopback: false })(byName))).toBe("forbidden address")
    const toLoopback = async () => [{ address: "127.0.0.1", family: 4 }]
    expect(
      await refusal(
        fetchWith({ allowLoopback: false, resolveName: toLoopback })("https://metadata.example.test/")
      )
    ).toBe("forbidden address")
    expect(server.received.length).toBe(before)
  })

  it("refuses private, link-local and metadata addresses before any connection", async () => {
    const fetch = fetchWith()
    const started = Date.now()
    for (const url of [
      "https://10.0.0.1/meta.json",
      "https://192.168.1.20/meta.json",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::ffff:a9fe:a9fe]/",
      "https://[fd00::1]/",
      "https://0.0.0.0/"
    ])
      expect(await refusal(fetch(url)), url).toBe("forbidden address")
    // No connection was tried: an attempt at an unrouted address would take far longer to fail.
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it("refuses a name resolving to a private address, in any spelling or among public ones", async () => {
    const before = server.received.length
    for (const answer of [
      ["192.168.0.10"],
      ["10.1.2.3"],
      ["::ffff:c0a8:1"],
      ["0:0:0:0:0:ffff:169.254.169.254"],
      ["93.184.216.34", "10.0.0.1"]
    ]) {
      const resolveName = async () =>
        answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
      expect(
        await refusal(fetchWith({ resolveName })("https://client.example.test/meta.json")),
        answer.join()
      ).toBe("forbidden address")
    }
    // A name that does not resolve reads the same.
    expect(await refusal(fetchWith()("https://no-such-host.invalid/meta.json"))).toBe("forbidden address")
    expect(server.received.length).toBe(before)
  })

  it("connects to the address it checked, resolving the name once", async () => {
    server.answerWith(() => ({ status: 200, body: "pinned" }))
    let lookups = 0
    const resolveName = async () => {
      lookups++
      return [{ address: "127.0.0.1", family: 4 }]
    }
    // "localhost" is in the certificate; the system's resolver is never asked.
    const response = await fetchWith({ resolveName })(server.url.replace("127.0.0.1", "localhost"))
    expect(await response.text()).toBe("pinned")
    expect(lookups).toBe(1)
  })

  it("does not follow a redirect", async () => {
    const before = server.received.length
    server.answerWith(() => ({ status: 302, headers: { location: `${server.url}/elsewhere` }, body: "" }))
    const response = await fetchWith()(`${server.url}/meta.json`, { redirect: "manual" })
    expect(response.status).toBe(302)
    expect(response.headers.get("location")).toBe(`${server.url}/elsewhere`)
    // Followed or not asked, only the first request reached the server.
    const followed = await fetchWith()(`${server.url}/meta.json`)
    expect(followed.status).toBe(302)
    expect(server.received.length).toBe(before + 2)
    expect(await refusal(fetchWith()(`${server.url}/meta.json`, { redirect: "error" }))).toBe(
      "redirect refused"
    )
  })

  it("gives up at the caller's signal, or its own timeout without one", async () => {
    server.answerWith(() => "hang")
    let started = Date.now()
    expect(await refusal(fetchWith()(server.url, { signal: AbortSignal.timeout(200) }))).toBe("timed out")
    expect(Date.now() - started).toBeLessThan(2000)
    started = Date.now()
    expect(await refusal(fetchWith({ timeoutMs: 200 })(server.url))).toBe("timed out")
    expect(Date.now() - started).toBeLessThan(2000)
  })

  it("fails a body past its size limit", async () => {
    server.answerWith(() => ({ status: 200, body: "x".repeat(64 * 1024) }))
    const response = await fetchWith({ maxBodyBytes: 5 * 1024 })(server.url)
    expect(response.status).toBe(200)
    expect(await refusal(response.text())).toBe("response too large")
    server.answerWith(() => ({ status: 200, body: "x".repeat(5 * 1024) }))
    expect((await (await fetchWith({ maxBodyBytes: 5 * 1024 })(server.url)).text()).length).toBe(5 * 1024)
  })

  it("fetches only https, only GET and HEAD, and only from a trusted certificate", async () => {
    const before = server.received.length
    expect(await refusal(fetchWith()(server.url.replace("https:", "http:")))).toBe("only https is fetched")
    expect(await refusal(fetchWith()(server.url, { method: "POST", body: "{}" }))).toBe(
      "only GET and HEAD are fetched"
    )
    expect(await refusal(fetchWith()("not a url"))).toBe("invalid URL")
    server.answerWith(() => 200)
    const untrusted = await fetchWith({ ca: undefined })(server.url).then(
      () => "fetched",
      (e: TypeError) => e.message
    )
    expect(untrusted).toBe("fetch failed")
    expect(server.received.length).toBe(before)
  })
})
