// Requests made safe to repeat with an `Idempotency-Key` (sharing-api.md: bulk create and import).
// The first request with a key claims it and runs; the same key with the same request answers what
// the first answered, for 24 hours; the same key with another request is a conflict. The adapter
// hands in the request's identity and the work, which answers in the form a replay repeats.
import { Clock, Context, Effect, Layer } from "effect"
import type { StorageError } from "../kernel/errors.js"
import { Principal } from "../identity/principal.js"
import { canonicalJson } from "../kernel/canonical-json.js"
import { sha256Hex } from "../kernel/digest.js"
import { IdGen } from "../kernel/ports/id-gen.js"
import { IdempotencyKeyReused, IdempotentRequestRunning } from "./errors.js"
import { IdempotencyStore, type IdempotentAnswer } from "./ports/idempotency.js"

export interface Idempotent {
  readonly answer: IdempotentAnswer
  /** True when the answer is the stored one of an earlier run (nothing ran now). */
  readonly replayed: boolean
}

/**
 * Runs `work` once per (tenant, key, request). `request` is what makes two requests the same (the
 * route and its body), compared by a digest of its canonical JSON. `work` receives a seed that names
 * this request stably across runs (for ids that a re-run must find again). When `work` fails or is
 * interrupted, the claim is released so a retry runs at once.
 */
export const idempotently = <E, R>(
  key: string,
  request: unknown,
  work: (seed: string) => Effect.Effect<IdempotentAnswer, E, R>
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const store = yield* IdempotencyStore
    const token = yield* (yield* IdGen).uuid
    const requestHash = sha256Hex(canonicalJson(request))
    const now = new Date(yield* Clock.currentTimeMillis)
    const claim = yield* store.claim({ tenantId: principal.tenant, key, requestHash, token, now })
    switch (claim._tag) {
      case "Replay":
        return { answer: claim.answer, replayed: true } satisfies Idempotent
      case "Mismatch":
        return yield* new IdempotencyKeyReused()
      case "InProgress":
        return yield* new IdempotentRequestRunning()
      case "Claimed": {
        const answer = yield* work(`${principal.tenant}\n${key}\n${requestHash}`).pipe(
          Effect.onExit((exit) =>
            exit._tag === "Success" ? Effect.void : Effect.ignore(store.release(principal.tenant, key, token))
          )
        )
        // A false here means the lease ran out and another run took the key; this run's work is done
        // all the same (its items are the same ids), so it still answers.
        yield* store.complete(principal.tenant, key, token, answer)
        return { answer, replayed: false } satisfies Idempotent
      }
    }
  })

export interface SharingIdempotencyService {
  readonly run: <E, R>(
    key: string,
    request: unknown,
    work: (seed: string) => Effect.Effect<IdempotentAnswer, E, R>
  ) => Effect.Effect<
    Idempotent,
    E | IdempotencyKeyReused | IdempotentRequestRunning | StorageError,
    R | Principal
  >
}

/** `idempotently` over the IdempotencyStore and IdGen read once (the handlers' service). */
export class SharingIdempotency extends Context.Service<SharingIdempotency, SharingIdempotencyService>()(
  "@folio/domain/SharingIdempotency"
) {}

export const SharingIdempotencyLive = Layer.effect(
  SharingIdempotency,
  Effect.gen(function* () {
    const ports = Context.pick(IdempotencyStore, IdGen)(yield* Effect.context<IdempotencyStore | IdGen>())
    return SharingIdempotency.of({
      run: (key, request, work) => Effect.provideContext(idempotently(key, request, work), ports)
    })
  })
)
