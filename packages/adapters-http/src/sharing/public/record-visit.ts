// A counted view handed to analytics: the public routes and the node:http fast path both call this
// where they count the view, so analytics sees exactly the views `view_count` counts. It reads what
// the request says (user agent through the redirect rules' memoized parser, Referer, the target's
// query, the trusted country header) and pushes a raw hit; the recorder does the rest off the path.
import type { ResourceRecord, VisitRecorder } from "@folio/domain"
import { Context } from "effect"
import { countryFrom, parseUserAgent } from "../visit.js"

/**
 * The lower-case header a trusted proxy names the client's address in (`cf-connecting-ip`,
 * `x-real-ip`; of a list, the first entry); undefined: the socket's address. Analytics only.
 */
export const ClientIpHeader = Context.Reference<string | undefined>("@folio/adapters-http/ClientIpHeader", {
  defaultValue: () => undefined
})

export interface VisitRecording {
  readonly recorder: VisitRecorder["Service"]
  readonly ipHeader: string | undefined
  readonly countryHeader: string | undefined
}

const MAX_IP = 64

/** The client address: the trusted header's first entry when configured and present, else the socket's. */
export const clientAddressOf = (
  headers: Readonly<Record<string, string | undefined>>,
  socketAddress: string | undefined,
  ipHeader: string | undefined
): string => {
  if (ipHeader !== undefined) {
    const value = headers[ipHeader]
    const first = value?.split(",")[0]?.trim()
    if (first !== undefined && first !== "") return first.slice(0, MAX_IP)
  }
  return socketAddress ?? "unknown"
}

/** Records the counted view of `r` (synchronous: a push, for the fast path as for the routes). */
export const recordVisit = (
  recording: VisitRecording,
  r: ResourceRecord,
  request: { readonly headers: Readonly<Record<string, string | undefined>>; readonly url: string },
  socketAddress: string | undefined,
  at: number,
  /** A link's destination as its owner wrote it. */
  destination?: string | undefined
): void => {
  const userAgent = request.headers["user-agent"] ?? ""
  const agent = parseUserAgent(userAgent)
  recording.recorder.recordNow({
    resourceId: r.id,
    tenantId: r.tenantId,
    at,
    ip: clientAddressOf(request.headers, socketAddress, recording.ipHeader),
    userAgent,
    browser: agent.browser,
    system: agent.system,
    device: agent.device,
    // A client that names itself nothing is a script, not a person.
    bot: agent.device === "bot" || userAgent.trim() === "",
    referer: request.headers.referer,
    url: request.url,
    country:
      recording.countryHeader === undefined
        ? undefined
        : countryFrom(request.headers[recording.countryHeader]),
    destination
  })
}
