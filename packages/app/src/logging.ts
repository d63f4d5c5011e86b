// LOG_LEVEL names to Effect log levels, and the server's logger: JSON lines on stdout with every
// secret path segment and query value redacted, whatever wrote them (the access log's `http.url`,
// a failure's cause, a webhook target in a warning); inside a span, with its `trace_id` and `span_id`.
import { redactSecrets } from "@folio/adapters-http/shared"
import { Formatter, Logger, type LogLevel } from "effect"
import type { LogLevelName } from "./config.js"

export const logLevelOf = (name: LogLevelName): LogLevel.LogLevel => {
  switch (name) {
    case "trace":
      return "Trace"
    case "debug":
      return "Debug"
    case "info":
      return "Info"
    case "warning":
      return "Warn"
    case "error":
      return "Error"
    case "none":
      return "None"
  }
}

/**
 * Logger.formatJson's fields, plus the current span's `trace_id` and `span_id` (W3C hex, as an
 * OpenTelemetry backend joins logs to traces) when the line is written inside one; tracing off, the
 * fiber has no span and the line is as before.
 */
export const jsonWithTraceIds = Logger.make((options) => {
  const structured = Logger.formatStructured.log(options)
  const span = options.fiber.cache.span
  return Formatter.formatJson(
    span === undefined || span.traceId === "noop"
      ? structured
      : { ...structured, trace_id: span.traceId.padStart(32, "0"), span_id: span.spanId }
  )
})

/** The JSON lines, each redacted once it is formatted (so nothing formatted escapes it). */
export const redactedJsonLogger = Logger.withConsoleLog(Logger.map(jsonWithTraceIds, redactSecrets))
