// A fake OpenAI-compatible chat-completions server on 127.0.0.1: scripted replies (or none at all),
// every request recorded, and requests the client gave up on counted.
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export type FakeReply =
  | { readonly status?: number; readonly headers?: Record<string, string>; readonly body: unknown }
  /** The model's answer: `content` as the first choice's message content (a string is sent as is). */
  | { readonly content: unknown }
  /** Never answers (the client must time out). */
  | "hang"
  /** Answers `reply` after a wait. */
  | { readonly delayMs: number; readonly reply: FakeReply }

export interface RecordedRequest {
  readonly method: string
  readonly url: string
  readonly headers: IncomingHttpHeaders
  readonly body: unknown
}

export interface FakeChatCompletions {
  readonly baseUrl: string
  readonly requests: Array<RecordedRequest>
  /** Requests whose connection closed before a reply was sent (the client aborted). */
  readonly abandoned: () => number
  /** Replies used in order; the last one repeats. */
  readonly script: (...replies: ReadonlyArray<FakeReply>) => void
  /** Replies computed from each request's body instead (until the next `script`). */
  readonly respondWith: (responder: (body: unknown) => FakeReply) => void
  readonly close: () => Promise<void>
}

const completion = (content: unknown) => ({
  id: "chatcmpl-fake",
  object: "chat.completion",
  created: 0,
  model: "fake",
  choices: [
    {
      index: 0,
      finish_reason: "stop",
      message: { role: "assistant", content: typeof content === "string" ? content : JSON.stringify(content) }
    }
  ]
})

const send = (res: ServerResponse, reply: Exclude<FakeReply, "hang">): void => {
  if ("delayMs" in reply) {
    const { delayMs, reply: later } = reply
    setTimeout(() => {
      if (later !== "hang" && !res.destroyed) send(res, later)
    }, delayMs)
    return
  }
  const status = "status" in reply ? (reply.status ?? 200) : 200
  const body = "content" in reply ? completion(reply.content) : reply.body
  const headers = "headers" in reply ? (reply.headers ?? {}) : {}
  res.writeHead(status, { "content-type": "application/json", ...headers })
  res.end(JSON.stringify(body))
}

export const startFakeChatCompletions = async (): Promise<FakeChatCompletions> => {
  const requests: Array<RecordedRequest> = []
  let replies: ReadonlyArray<FakeReply> = []
  let abandoned = 0
  let responder: ((body: unknown) => FakeReply) | undefined
  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8")
      let body: unknown = text
      try {
        body = JSON.parse(text)
      } catch {}
      const index = requests.length
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body })
      res.on("close", () => {
        if (!res.writableEnded) abandoned++
      })
      const reply = responder?.(body) ?? replies[Math.min(index, replies.length - 1)]
      if (reply === undefined) return send(res, { status: 500, body: { error: "no reply scripted" } })
      if (reply !== "hang") send(res, reply)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    abandoned: () => abandoned,
    respondWith: (fn) => {
      responder = fn
      requests.length = 0
    },
    script: (...next) => {
      responder = undefined
      replies = next
      requests.length = 0
      abandoned = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
