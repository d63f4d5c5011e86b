// Requests made safe to repeat with an `Idempotency-Key` (sharing-api.md: bulk create and import
// require it; every create honours it). The first request with a key claims it and runs; the same key
// with the same request answers what the first answered, as it was sent, for 24 hours; the same key
// with another request is a conflict. The adapter hands in the request's identity and the work, which
// answers in the form a replay repeats.
import { sha256 } from "@noble/hashes/sha2"
import { Clock, Context, Effect, Layer, Stream } from "effect"
import type { StorageError } from "../kernel/errors.js"
import { Principal } from "../identity/principal.js"
import { canonicalJson } from "../kernel/canonical-json.js"
import { provideHeld } from "../kernel/held-context.js"
import { sha256Hex, toHex } from "../kernel/digest.js"
import { IdGen } from "../kernel/ports/id-gen.js"
import { IdempotencyKeyReused, IdempotentRequestRunning } from "./errors.js"
import type { UploadBodyError, UploadPart } from "./files/upload.js"
import { type ClaimOutcome, IdempotencyStore, type IdempotentAnswer } from "./ports/idempotency.js"

export interface Idempotent {
  readonly answer: IdempotentAnswer
  /** True when the answer is the stored one of an earlier run (nothing ran now). */
  readonly replayed: boolean
}

/**
 * What a key's holder means for a request whose digest is `requestHash`: the stored answer of the
 * same request, or a refusal (another request under the key, or the same one still running).
 */
const settleHeld = (
  held: Exclude<ClaimOutcome, { readonly _tag: "Claimed" }>,
  requestHash: string
): Effect.Effect<Idempotent, IdempotencyKeyReused | IdempotentRequestRunning> => {
  if (held._tag === "Answered")
    return held.requestHash === requestHash
      ? Effect.succeed({ answer: held.answer, replayed: true })
      : Effect.fail(new IdempotencyKeyReused())
  return Effect.fail(
    held.requestHash !== null && held.requestHash !== requestHash
      ? new IdempotencyKeyReused()
      : new IdempotentRequestRunning()
  )
}

/**
 * Claims `key` (with `requestHash` when it is known before the request runs), then runs `work` once,
 * releasing the claim when it fails or is interrupted so a retry runs at once; `work` answers its
 * result and the request's digest. `refused` settles a key someone else holds.
 */
const claimAndRun = <E, R, E2, R2>(
  key: string,
  requestHash: string | null,
  work: (
    seed: string
  ) => Effect.Effect<{ readonly answer: IdempotentAnswer; readonly requestHash: string }, E, R>,
  refused: (
    held: Exclude<ClaimOutcome, { readonly _tag: "Claimed" }>
  ) => Effect.Effect<Idempotent, E2 | IdempotencyKeyReused | IdempotentRequestRunning, R2>
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const store = yield* IdempotencyStore
    const token = yield* (yield* IdGen).uuid
    const now = new Date(yield* Clock.currentTimeMillis)
    const claim = yield* store.claim({ tenantId: principal.tenant, key, requestHash, token, now })
    if (claim._tag !== "Claimed") return yield* refused(claim)
    const done = yield* work(`${principal.tenant}\n${key}\n${requestHash ?? "streamed"}`).pipe(
      Effect.onExit((exit) =>
        exit._tag === "Success" ? Effect.void : Effect.ignore(store.release(principal.tenant, key, token))
      )
    )
    // A false here means the lease ran out and another run took the key; this run's work is done
    // all the same (bulk items are the same ids), so it still answers.
    yield* store.complete(principal.tenant, key, token, done.requestHash, done.answer)
    return { answer: done.answer, replayed: false } satisfies Idempotent
  })

/**
 * Runs `work` once per (tenant, key, request). `request` is what makes two requests the same (the
 * route and its body), compared by a digest of its canonical JSON. `work` receives a seed that names
 * this request stably across runs (for ids that a re-run must find again).
 */
export const idempotently = <E, R>(
  key: string,
  request: unknown,
  work: (seed: string) => Effect.Effect<IdempotentAnswer, E, R>
) => {
  const requestHash = sha256Hex(canonicalJson(request))
  return claimAndRun(
    key,
    requestHash,
    (seed) => Effect.map(work(seed), (answer) => ({ answer, requestHash })),
    (held) => settleHeld(held, requestHash)
  )
}

/**
 * The digest of a multipart body as it streams by, independent of its boundary and chunking: the
 * route, then each part in order (a field's name and value; a file part's name, file name and the
 * SHA-256 of its bytes), each length-prefixed. The same form sent again (curl and browsers draw a
 * new boundary each time) has the same digest; the bytes are never held.
 */
export const multipartFingerprint = (route: string) => {
  // What was read, in order: text, or a file's running hash. A reader may pull the next part before
  // it has read a file's bytes, so each file's hash is finished only when the digest is taken.
  const read: Array<string | ReturnType<typeof sha256.create>> = [route]
  return {
    /** `parts`, digested as they are read (each file part's bytes as its content is read). */
    tap: <E>(parts: Stream.Stream<UploadPart, E>): Stream.Stream<UploadPart, E> =>
      Stream.map(parts, (part): UploadPart => {
        if (part._tag === "Field") {
          read.push("field", part.name, part.value)
          return part
        }
        const hash = sha256.create()
        read.push("file", part.name, part.fileName ?? "", hash)
        return {
          ...part,
          content: Stream.tap(part.content, (chunk) => Effect.sync(() => hash.update(chunk)))
        }
      }),
    /** The digest of every part read so far (take it once the body has been read). */
    digest: (): string => {
      const outer = sha256.create()
      const encoder = new TextEncoder()
      for (const item of read) {
        const bytes = encoder.encode(typeof item === "string" ? item : toHex(item.digest()))
        outer.update(encoder.encode(`${bytes.byteLength}:`))
        outer.update(bytes)
      }
      return toHex(outer.digest())
    }
  }
}

/**
 * `idempotently` for a streamed multipart body, whose digest (`multipartFingerprint`) is known only
 * once it has been read. The key is claimed first, so a concurrent request with it runs nothing (409);
 * the claimer digests the parts as `work` reads them. A later request with the key reads its body
 * through (storing nothing) to compare digests, then replays or is refused.
 */
export const idempotentlyStreamed = <E, R>(
  key: string,
  route: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  work: (parts: Stream.Stream<UploadPart, UploadBodyError>) => Effect.Effect<IdempotentAnswer, E, R>
) =>
  claimAndRun(
    key,
    null,
    () => {
      const fingerprint = multipartFingerprint(route)
      return Effect.map(work(fingerprint.tap(parts)), (answer) => ({
        answer,
        requestHash: fingerprint.digest()
      }))
    },
    (held) =>
      held._tag === "InProgress"
        ? Effect.fail(new IdempotentRequestRunning())
        : Effect.gen(function* () {
            const fingerprint = multipartFingerprint(route)
            yield* Stream.runForEach(fingerprint.tap(parts), (part) =>
              part._tag === "File" ? Stream.runDrain(part.content) : Effect.void
            )
            return yield* settleHeld(held, fingerprint.digest())
          })
  )

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
  readonly runStreamed: <E, R>(
    key: string,
    route: string,
    parts: Stream.Stream<UploadPart, UploadBodyError>,
    work: (parts: Stream.Stream<UploadPart, UploadBodyError>) => Effect.Effect<IdempotentAnswer, E, R>
  ) => Effect.Effect<
    Idempotent,
    E | UploadBodyError | IdempotencyKeyReused | IdempotentRequestRunning | StorageError,
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
    const provide = provideHeld(
      Context.pick(IdempotencyStore, IdGen)(yield* Effect.context<IdempotencyStore | IdGen>())
    )
    return SharingIdempotency.of({
      run: (key, request, work) => provide(idempotently(key, request, work)),
      runStreamed: (key, route, parts, work) => provide(idempotentlyStreamed(key, route, parts, work))
    })
  })
)
