// A WebAuthn ceremony's challenge kept between its two requests: a single-use, short-lived
// `passkey_challenge` one-time token found by the hash of a random flow id the browser holds.
import { Effect, Option } from "effect"
import type { StorageError } from "../../kernel/errors.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { OneTimeTokenRepository } from "../ports/people.js"
import { LinkPolicy } from "./policy.js"
import { hashSecret, newSecret, now } from "./secrets.js"

export type CeremonyPurpose = "signin" | "register"

/** Keeps the challenge; the flow id the browser sends back with its response. */
export const keepChallenge = (
  purpose: CeremonyPurpose,
  challenge: string,
  userId: string | null
): Effect.Effect<string, StorageError, OneTimeTokenRepository | IdGen> =>
  Effect.gen(function* () {
    const { token: flowId, hash } = yield* newSecret
    const at = yield* now
    const policy = yield* LinkPolicy
    yield* (yield* OneTimeTokenRepository).create({
      id: yield* (yield* IdGen).uuidV7,
      kind: "passkey_challenge",
      tokenHash: hash,
      tenantId: null,
      email: null,
      role: null,
      userId,
      data: { challenge, purpose },
      createdAt: at,
      expiresAt: new Date(at.getTime() + policy.challengeMs),
      usedAt: null
    })
    return flowId
  })

/**
 * Uses the flow's challenge up (once, even when the response then fails to verify) and answers it
 * when it was issued for this purpose and person; none otherwise.
 */
export const takeChallenge = (
  flowId: string,
  purpose: CeremonyPurpose,
  userId: string | null
): Effect.Effect<Option.Option<string>, StorageError, OneTimeTokenRepository> =>
  Effect.gen(function* () {
    const taken = yield* (yield* OneTimeTokenRepository).consume(
      "passkey_challenge",
      hashSecret(flowId),
      yield* now
    )
    return Option.flatMap(taken, (record) => {
      const challenge = record.data.challenge
      return record.data.purpose === purpose && record.userId === userId && challenge !== undefined
        ? Option.some(challenge)
        : Option.none()
    })
  })
