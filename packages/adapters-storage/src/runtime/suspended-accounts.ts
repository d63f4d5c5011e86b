// SuspendedAccounts from memory: the ids of the disabled tenants, read at start, kept current by the
// InvalidationBus topic ACCOUNTS_TOPIC (each announcement names one account, read again from the
// store) and re-read whole every SUSPENDED_ACCOUNTS_REFRESH_MS, the safety net for an announcement
// lost with a LISTEN connection. Every public request asks it, so it must never wait.
import { ACCOUNTS_TOPIC, InvalidationBus, SuspendedAccounts, TenantRepository } from "@folio/domain"
import { Effect, Layer, Option } from "effect"

export const SUSPENDED_ACCOUNTS_REFRESH_MS = 30_000

export const SuspendedAccountsLive = Layer.effect(
  SuspendedAccounts,
  Effect.gen(function* () {
    const tenants = yield* TenantRepository
    const bus = yield* InvalidationBus
    let suspended: ReadonlySet<string> = new Set(yield* tenants.listDisabled)
    // Bumped by every announcement: a whole re-read that started before one does not overwrite it.
    let epoch = 0

    yield* bus.subscribe(ACCOUNTS_TOPIC, (tenantId) =>
      Effect.gen(function* () {
        epoch++
        const found = yield* tenants.get(tenantId)
        const next = new Set(suspended)
        if (Option.isSome(found) && found.value.disabledAt !== null) next.add(tenantId)
        else next.delete(tenantId)
        suspended = next
      }).pipe(
        Effect.catch((e) => Effect.logWarning("account change not read; the next re-read catches it", e))
      )
    )

    const reread = Effect.gen(function* () {
      const started = epoch
      const ids = yield* tenants.listDisabled
      if (epoch === started) suspended = new Set(ids)
    }).pipe(Effect.catch((e) => Effect.logWarning("suspended accounts not re-read", e)))
    yield* Effect.forkScoped(
      Effect.forever(Effect.andThen(Effect.sleep(`${SUSPENDED_ACCOUNTS_REFRESH_MS} millis`), reread))
    )

    return SuspendedAccounts.of({ isSuspended: (tenantId) => suspended.has(tenantId) })
  })
)
