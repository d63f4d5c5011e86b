// LOG_LEVEL names to Effect log levels.
import { LogLevel } from "effect"
import type { LogLevelName } from "./config.js"

export const logLevelOf = (name: LogLevelName): LogLevel.LogLevel => {
  switch (name) {
    case "trace":
      return LogLevel.Trace
    case "debug":
      return LogLevel.Debug
    case "info":
      return LogLevel.Info
    case "warning":
      return LogLevel.Warning
    case "error":
      return LogLevel.Error
    case "none":
      return LogLevel.None
  }
}
