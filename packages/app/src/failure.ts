// Turns a start-up or command failure into one readable line on stderr and a non-zero exit code,
// instead of a stack trace: a bad config value names its variable, a domain error says what to fix.
import { Cause, ConfigError, Effect, Option } from "effect"
import { describeConfigError } from "./config.js"

const describe = (error: unknown): string => {
  if (ConfigError.isConfigError(error)) return describeConfigError(error)
  if (
    typeof error === "object" &&
    error !== null &&
    "message" in error &&
    typeof error.message === "string"
  ) {
    const tag = "_tag" in error && typeof error._tag === "string" ? `${error._tag}: ` : ""
    return `${tag}${error.message}`
  }
  return String(error)
}

export const reportFailure = <E>(cause: Cause.Cause<E>) =>
  Effect.sync(() => {
    if (Cause.isInterruptedOnly(cause)) return
    const failure = Cause.failureOption(cause)
    const line = Option.isSome(failure)
      ? describe(failure.value)
      : `unexpected failure: ${Cause.pretty(cause)}`
    process.stderr.write(`folio: ${line}\n`)
    process.exitCode = 1
  })
