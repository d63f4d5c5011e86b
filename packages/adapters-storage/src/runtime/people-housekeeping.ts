// Deletes what people leave behind, once at start and hourly in every app instance: audit events past
// their 180 days, console sessions past their lifetime or idle timeout, spent links a day on, expired
// OAuth records. Expired sessions, links and tokens are refused already when used; this only keeps
// the tables bounded.
import {
  AUDIT_RETENTION_DAYS,
  AuditLog,
  OAuthStore,
  OneTimeTokenRepository,
  SessionPolicy,
  SessionRepository
} from "@folio/domain"
import { Clock, Duration, Effect, Layer, Schedule } from "effect"

const DAY_MS = 86_400_000

export const PEOPLE_HOUSEKEEPING_INTERVAL = Duration.hours(1)
/** How long the audit log keeps an event (the domain's AUDIT_RETENTION_DAYS, which the console shows). */
export const AUDIT_EVENT_RETENTION_MS = AUDIT_RETENTION_DAYS * DAY_MS
/** How long a used or expired link is kept (for a page that says "this link was used"). */
export const SPENT_LINK_RETENTION_MS = DAY_MS

/** What one sweep deleted. */
export interface PeopleSweep {
  readonly auditEvents: number
  readonly sessions: number
  readonly links: number
  /** The authorization server's expired grants, tokens, codes, interactions and sessions. */
  readonly oauth: number
}

/**
 * One sweep, now. The idle timeout is the SessionPolicy's, as sign-in applies it. A table that
 * cannot be swept is logged and counted as zero; the next round tries again.
 */
export const sweepPeople: Effect.Effect<
  PeopleSweep,
  never,
  AuditLog | SessionRepository | OneTimeTokenRepository | OAuthStore
> = Effect.gen(function* () {
  const audit = yield* AuditLog
  const sessions = yield* SessionRepository
  const links = yield* OneTimeTokenRepository
  const oauth = yield* OAuthStore
  const policy = yield* SessionPolicy
  const now = yield* Clock.currentTimeMillis
  const orNone = (what: string) =>
    Effect.catch((e: unknown) =>
      Effect.as(Effect.logWarning(`${what} not deleted; next round tries again`, e), 0)
    )
  return {
    auditEvents: yield* audit
      .deleteOlderThan(new Date(now - AUDIT_EVENT_RETENTION_MS))
      .pipe(orNone("old audit events")),
    sessions: yield* sessions
      .deleteExpired(new Date(now), new Date(now - policy.idleMs))
      .pipe(orNone("expired console sessions")),
    links: yield* links.deleteSpent(new Date(now - SPENT_LINK_RETENTION_MS)).pipe(orNone("spent links")),
    oauth: yield* oauth.deleteExpired(new Date(now)).pipe(orNone("expired OAuth records"))
  }
})

export const peopleHousekeeping = (every: Duration.Input = PEOPLE_HOUSEKEEPING_INTERVAL) =>
  // The loop runs in the layer's context: the SessionPolicy the app configures reaches every sweep.
  Layer.effectDiscard(Effect.forkScoped(Effect.repeat(sweepPeople, Schedule.spaced(every))))

export const PeopleHousekeepingLive = peopleHousekeeping()
