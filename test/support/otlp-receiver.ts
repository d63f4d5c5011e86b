// An OTLP/HTTP JSON trace receiver on 127.0.0.1 for tests: what an OpenTelemetry collector would be
// sent, kept as the raw bodies (for "this string is nowhere") and as spans (for the tree).
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"

export interface OtlpValue {
  readonly stringValue?: string
  readonly intValue?: string | number
  readonly boolValue?: boolean
  readonly doubleValue?: number
}

export interface ReceivedSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly startTimeUnixNano: string
  readonly endTimeUnixNano: string
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: OtlpValue }>
  readonly links: ReadonlyArray<{ readonly traceId: string; readonly spanId: string }>
  readonly status: { readonly code: number }
}

interface TraceBody {
  readonly resourceSpans: ReadonlyArray<{
    readonly resource: { readonly attributes: ReadonlyArray<{ key: string; value: OtlpValue }> }
    readonly scopeSpans: ReadonlyArray<{ readonly spans: ReadonlyArray<ReceivedSpan> }>
  }>
}

export interface OtlpReceiver {
  /** The traces endpoint (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). */
  readonly url: string
  /** Every body received, as sent. */
  readonly bodies: () => ReadonlyArray<string>
  readonly requestHeaders: () => ReadonlyArray<IncomingHttpHeaders>
  readonly spans: () => ReadonlyArray<ReceivedSpan>
  /** The resource attributes of the last body (service.name, service.version). */
  readonly resource: () => Record<string, OtlpValue>
  /** Waits until `found` answers something for the spans received so far. */
  readonly waitFor: <A>(
    found: (spans: ReadonlyArray<ReceivedSpan>) => A | undefined,
    timeoutMs?: number
  ) => Promise<A>
  readonly clear: () => void
  readonly close: () => Promise<void>
}

/** A span's attribute as a plain value (strings, numbers, booleans). */
export const attr = (span: ReceivedSpan, key: string): string | number | boolean | undefined => {
  const value = span.attributes.find((a) => a.key === key)?.value
  if (value === undefined) return undefined
  if (value.stringValue !== undefined) return value.stringValue
  if (value.intValue !== undefined) return Number(value.intValue)
  if (value.boolValue !== undefined) return value.boolValue
  return value.doubleValue
}

export const startOtlpReceiver = async (): Promise<OtlpReceiver> => {
  let bodies: Array<string> = []
  let headers: Array<IncomingHttpHeaders> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end()
        return
      }
      bodies.push(Buffer.concat(chunks).toString("utf8"))
      headers.push(request.headers)
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const parsed = () => bodies.map((b) => JSON.parse(b) as TraceBody)
  const spans = () =>
    parsed().flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)))
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    bodies: () => bodies,
    requestHeaders: () => headers,
    spans,
    resource: () =>
      Object.fromEntries(
        (parsed().at(-1)?.resourceSpans[0]?.resource.attributes ?? []).map((a) => [a.key, a.value])
      ),
    waitFor: async (found, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const result = found(spans())
        if (result !== undefined) return result
        if (Date.now() > deadline)
          throw new Error(`not received in ${timeoutMs} ms; spans: ${spans().length}`)
        await new Promise((r) => setTimeout(r, 100))
      }
    },
    clear: () => {
      bodies = []
      headers = []
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
