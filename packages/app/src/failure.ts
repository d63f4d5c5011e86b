// Turns a start-up or command failure into one readable line on stderr and a non-zero exit code,
// instead of a stack trace: a bad config value names its variable, a domain error says what to fix,
// and a failure with an underlying cause (a socket, the database) ends with that cause in words.
import { Cause, Data, Effect, Exit, Option } from "effect"
import { describeConfigError, isConfigError } from "./config.js"

/** A start-up step that failed, phrased for the operator ("cannot listen on ...", naming variables). */
export class StartupError extends Data.TaggedError("StartupError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

/** Node's network error codes in words; the code stays in the line for searching. */
const networkErrors: Readonly<Record<string, string>> = {
  EADDRINUSE: "the address is already in use",
  EADDRNOTAVAIL: "the address does not belong to this machine",
  EACCES: "permission denied (ports below 1024 need privileges)",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name cannot be resolved now",
  ECONNREFUSED: "connection refused",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  ENETUNREACH: "the network is unreachable"
}
const networkSyscalls = new Set(["listen", "bind", "connect", "getaddrinfo"])

const field = (error: unknown, name: string): unknown =>
  typeof error === "object" && error !== null && name in error
    ? (error as Record<string, unknown>)[name]
    : undefined

const text = (value: unknown): string => (typeof value === "string" ? value : "")

/** The innermost error of a `cause` chain (the first of an AggregateError, as Node's dual-stack connect throws). */
const rootCause = (error: unknown): unknown => {
  let current = error
  for (let depth = 0; depth < 10; depth++) {
    const errors = field(current, "errors")
    const next = Array.isArray(errors) && errors.length > 0 ? errors[0] : field(current, "cause")
    if (next === undefined || next === null) return current
    current = next
  }
  return current
}

const describeCause = (error: unknown): string => {
  const code = text(field(error, "code"))
  const words = networkErrors[code]
  if (words !== undefined && networkSyscalls.has(text(field(error, "syscall")))) return `${words} (${code})`
  return text(field(error, "message")) || code || String(error)
}

const describe = (error: unknown): string => {
  if (isConfigError(error)) return describeConfigError(error)
  const message = text(field(error, "message")) || text(field(error, "_tag"))
  if (message === "") return String(error)
  const cause = field(error, "cause")
  if (cause === undefined || cause === null) return message
  const why = describeCause(rootCause(cause))
  return why === "" || message.includes(why) ? message : `${message}: ${why}`
}

export const reportFailure = <E>(cause: Cause.Cause<E>) =>
  Effect.sync(() => {
    if (Cause.hasInterruptsOnly(cause)) return
    const failure = Cause.findErrorOption(cause)
    // One line: a cause's message may span several (PostgreSQL details, AWS SDK errors).
    const line = Option.isSome(failure)
      ? describe(failure.value).replace(/\s*\n\s*/g, " ")
      : `unexpected failure: ${Cause.pretty(cause)}`
    process.stderr.write(`folio: ${line}\n`)
    process.exitCode = 1
  })

/**
 * How the process ends: a stop asked for by SIGTERM or SIGINT is a clean exit (0), not Effect 4's
 * 130 for an interrupted program; otherwise the code reportFailure chose, or 1 for an unreported
 * failure.
 */
export const teardown = (exit: Exit.Exit<unknown, unknown>, onExit: (code: number) => void): void =>
  onExit(Exit.isSuccess(exit) || Cause.hasInterruptsOnly(exit.cause) ? Number(process.exitCode ?? 0) : 1)
