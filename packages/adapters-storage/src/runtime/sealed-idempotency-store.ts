// The idempotency store with every stored answer sealed (AES-256-GCM under a key derived from the
// deployment's signing secret): a replay must repeat the first answer byte for byte, and some first
// answers hold a secret shown only once (an upload request's token, of which the database otherwise
// keeps only the hash), so what the table holds must not be readable without the secret.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto"
import { type ClaimOutcome, type IdempotentAnswer, IdempotencyStore, StorageError } from "@folio/domain"
import { Effect, Layer } from "effect"

const SEALED = "sealed:v1:"
const IV_BYTES = 12
const TAG_BYTES = 16

/** Seals and opens answer bodies, bound to their tenant and key (a body moved to another row fails). */
export const answerSeal = (secret: string) => {
  const key = createHmac("sha256", secret).update("folio idempotent answers v1").digest()
  const aad = (tenantId: string, idempotencyKey: string) => Buffer.from(`${tenantId}\n${idempotencyKey}`)
  return {
    seal: (tenantId: string, idempotencyKey: string, body: string): string => {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv("aes-256-gcm", key, iv).setAAD(aad(tenantId, idempotencyKey))
      const sealed = Buffer.concat([cipher.update(body, "utf8"), cipher.final()])
      return SEALED + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64")
    },
    /** The body; an answer stored before sealing existed is returned as it is. */
    open: (tenantId: string, idempotencyKey: string, stored: string): string => {
      if (!stored.startsWith(SEALED)) return stored
      const raw = Buffer.from(stored.slice(SEALED.length), "base64")
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES))
        .setAAD(aad(tenantId, idempotencyKey))
        .setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES))
      return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString(
        "utf8"
      )
    }
  }
}

/** `inner` with its answers sealed on `complete` and opened on a replay. */
export const sealIdempotencyStore = (inner: IdempotencyStore["Service"], secret: string) => {
  const { seal, open } = answerSeal(secret)
  return IdempotencyStore.of({
    ...inner,
    complete: (tenantId, key, token, requestHash, answer: IdempotentAnswer) =>
      inner.complete(tenantId, key, token, requestHash, {
        ...answer,
        body: seal(tenantId, key, answer.body)
      }),
    claim: (claim) =>
      Effect.flatMap(inner.claim(claim), (outcome): Effect.Effect<ClaimOutcome, StorageError> => {
        if (outcome._tag !== "Answered") return Effect.succeed(outcome)
        return Effect.try({
          try: (): ClaimOutcome => ({
            ...outcome,
            answer: { ...outcome.answer, body: open(claim.tenantId, claim.key, outcome.answer.body) }
          }),
          // Sealed under another secret (it was rotated): the answer cannot be repeated.
          catch: (cause) => new StorageError({ message: "a stored answer could not be opened", cause })
        })
      })
  })
}

/** Wraps the configured IdempotencyStore: answers are sealed on `complete` and opened on a replay. */
export const SealedIdempotencyStoreLive = (secret: string) =>
  Layer.effect(
    IdempotencyStore,
    Effect.map(Effect.service(IdempotencyStore), (inner) => sealIdempotencyStore(inner, secret))
  )
