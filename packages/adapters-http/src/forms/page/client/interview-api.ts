// The interview routes of /f/{slug}, as the chat page calls them: start, resume, send (the reply read
// as server-sent events from fetch's body stream) and finish. Like api.ts, every call answers
// `{ status, data?, error? }` and never throws; a network failure or a broken stream answers status 0.
import { call, type Reply, replyOf } from "./api.js"

export interface ChatMessage {
  readonly id: string
  readonly role: "assistant" | "user"
  readonly text: string
}

export interface InterviewTurn {
  readonly responseId: string
  readonly formVersionId: string
  readonly locale: string
  readonly messages: ReadonlyArray<ChatMessage>
  readonly done: boolean
  readonly completionReason: string | null
  readonly progress: number
  /** Once done, on a form offering withdrawal: the respondent's private withdrawal link. */
  readonly withdrawalPath?: string
  /** What has been understood so far (absent when the interview's live profile is off). */
  readonly profile?: ReadonlyArray<ProfileItem>
}

export interface ProfileItem {
  readonly fieldId: string
  readonly label: string
  readonly value: string
}

export interface StartedInterview extends InterviewTurn {
  readonly token: string
  readonly repeatWarning: boolean
}

export interface StreamHandlers {
  /** The respondent's message as the server recorded it. */
  readonly onMessage: (message: ChatMessage) => void
  /** A piece of the reply's text, to append to the message `id`. */
  readonly onDelta: (delta: { readonly id: string; readonly text: string }) => void
}

interface ServerEvent {
  readonly event: string
  readonly data: string
}

/** One event block of a text/event-stream (`event:` and `data:` lines; comments ignored). */
const parseEvent = (block: string): ServerEvent | undefined => {
  let event = "message"
  const data: Array<string> = []
  for (const line of block.split(/\r\n|\r|\n/)) {
    if (line === "" || line.startsWith(":")) continue
    const colon = line.indexOf(":")
    const name = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "")
    if (name === "event") event = value
    else if (name === "data") data.push(value)
  }
  return data.length === 0 ? undefined : { event, data: data.join("\n") }
}

/** The events of a response body, as they arrive. */
async function* serverEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerEvent> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffer = ""
  try {
    for (;;) {
      const { done, value } = await reader.read()
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true })
      const blocks = buffer.split(/\r\n\r\n|\n\n|\r\r/)
      buffer = done ? "" : (blocks.pop() ?? "")
      for (const block of blocks) {
        const event = parseEvent(block)
        if (event !== undefined) yield event
      }
      if (done) return
    }
  } finally {
    reader.releaseLock()
  }
}

export const makeInterviewApi = (slug: string) => {
  const base = `/f/${encodeURIComponent(slug)}/interview`
  return {
    /** This browser's unfinished interview (404 when there is none). */
    resume: () => call<StartedInterview>("POST", `${base}/resume`),
    start: (options: {
      readonly params: Record<string, string>
      readonly locale: string
      readonly acceptDisclosure?: boolean | undefined
      readonly confirmRepeat?: boolean | undefined
      readonly consent?: ReadonlyArray<string> | undefined
    }) =>
      call<StartedInterview>("POST", base, {
        params: options.params,
        locale: options.locale,
        ...(options.acceptDisclosure === undefined ? {} : { acceptDisclosure: options.acceptDisclosure }),
        ...(options.confirmRepeat === true ? { confirmRepeat: true } : {}),
        ...(options.consent === undefined ? {} : { consent: options.consent })
      }),
    /**
     * Sends the respondent's message and streams the reply into `handlers`; answers the whole turn
     * once the stream says `done`. Errors come back as plain JSON error responses.
     */
    send: async (
      responseId: string,
      token: string,
      text: string,
      handlers: StreamHandlers
    ): Promise<Reply<InterviewTurn>> => {
      try {
        const response = await fetch(`${base}/${encodeURIComponent(responseId)}/messages`, {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({ token, text })
        })
        const type = response.headers.get("content-type") ?? ""
        if (!response.ok || !type.includes("text/event-stream") || response.body === null)
          return await replyOf<InterviewTurn>(response)
        for await (const e of serverEvents(response.body)) {
          const payload: unknown = JSON.parse(e.data)
          if (e.event === "message") handlers.onMessage(payload as ChatMessage)
          else if (e.event === "delta") handlers.onDelta(payload as { id: string; text: string })
          else if (e.event === "done")
            return { status: response.status, ...(payload as { data: InterviewTurn }) }
        }
        // The stream ended before its `done`: what the server kept is not known here.
        return { status: 0 }
      } catch {
        return { status: 0 }
      }
    },
    finish: (responseId: string, token: string) =>
      call<InterviewTurn>("POST", `${base}/${encodeURIComponent(responseId)}/finish`, { token }),
    /** Starts over: a new interview (201) for the holder of this one's token. */
    restart: (responseId: string, token: string) =>
      call<StartedInterview>("POST", `${base}/${encodeURIComponent(responseId)}/restart`, { token })
  }
}

export type InterviewApi = ReturnType<typeof makeInterviewApi>
