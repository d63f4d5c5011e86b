// LOG_LEVEL names to Effect log levels.
import type { LogLevel } from "effect"
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
