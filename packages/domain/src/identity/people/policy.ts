// The tunable numbers of people's sign-in, sessions and links, and the normal form of an e-mail.
// References (with defaults) so deployments set them from config and tests shorten them.
import { Context, Option } from "effect"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

/** Console sessions: a sliding idle timeout, an absolute lifetime, and how often use is written. */
export const SessionPolicy = Context.Reference<{
  readonly idleMs: number
  readonly absoluteMs: number
  /** lastSeenAt is written at most this often (a write per page view would be wasted). */
  readonly touchEveryMs: number
}>("@folio/domain/SessionPolicy", {
  defaultValue: () => ({ idleMs: 12 * HOUR, absoluteMs: 7 * DAY, touchEveryMs: MINUTE })
})

/**
 * Password guessing budgets: failures per account (counted for unknown e-mails too, so the budget
 * reveals nothing) and per client address in a fixed window, and a delay that doubles with each
 * failure past `delayAfter`, capped at `delayMaxMs`.
 */
export const SignInPolicy = Context.Reference<{
  readonly windowMs: number
  readonly perAccount: number
  readonly perAddress: number
  readonly delayAfter: number
  readonly delayBaseMs: number
  readonly delayMaxMs: number
}>("@folio/domain/SignInPolicy", {
  defaultValue: () => ({
    windowMs: 15 * MINUTE,
    perAccount: 10,
    perAddress: 50,
    delayAfter: 3,
    delayBaseMs: 250,
    delayMaxMs: 5_000
  })
})

/** How long each kind of one-time link (and a passkey ceremony's challenge) stays usable. */
export const LinkPolicy = Context.Reference<{
  readonly invitationMs: number
  readonly resetMs: number
  readonly setupMs: number
  readonly challengeMs: number
}>("@folio/domain/LinkPolicy", {
  defaultValue: () => ({ invitationMs: 7 * DAY, resetMs: HOUR, setupMs: 7 * DAY, challengeMs: 5 * MINUTE })
})

/** Where the console's links point (PUBLIC_ORIGIN): invitations, setup and password resets. */
export const ConsoleLinks = Context.Reference<{ readonly publicOrigin: string }>(
  "@folio/domain/ConsoleLinks",
  {
    defaultValue: () => ({ publicOrigin: "http://localhost:8080" })
  }
)

/** The longest address SMTP carries (RFC 5321's path limit less the brackets). */
const MAX_EMAIL_LENGTH = 254

/**
 * The e-mail as accounts are keyed by it: trimmed and lower-cased, exactly one @ with text on both
 * sides, no whitespace or control characters. None when it cannot be an address.
 */
export const normalizeEmail = (text: string): Option.Option<string> => {
  const email = text.trim().toLowerCase()
  if (email.length === 0 || email.length > MAX_EMAIL_LENGTH) return Option.none()
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (/[\s\u0000-\u001f\u007f]/.test(email)) return Option.none()
  const at = email.indexOf("@")
  if (at <= 0 || at !== email.lastIndexOf("@") || at === email.length - 1) return Option.none()
  return Option.some(email)
}
