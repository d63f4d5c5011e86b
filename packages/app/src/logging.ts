// LOG_LEVEL names to Effect log levels, and the server's logger: JSON lines on stdout with every
// secret path segment and query value redacted, whatever wrote them (the access log's `http.url`,
// a failure's cause, a webhook target in a warning).
import { redactSecrets } from "@folio/adapters-http/shared"
import { Logger, type LogLevel } from "effect"
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

/** Logger.consoleJson, each line redacted once it is formatted (so nothing formatted escapes it). */
export const redactedJsonLogger = Logger.withConsoleLog(Logger.map(Logger.formatJson, redactSecrets))
