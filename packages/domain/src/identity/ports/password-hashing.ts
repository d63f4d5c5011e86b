// Port: hashing people's passwords (argon2id in the adapter, OWASP's parameters). Not the sharing
// service's PasswordHasher for protected links: accounts need rehash-on-sign-in and a dummy check.
import { Context, type Effect } from "effect"

export interface PasswordCheck {
  readonly valid: boolean
  /** The hash was made with other parameters than today's: store a fresh one after this sign-in. */
  readonly needsRehash: boolean
}

export interface PasswordHashingService {
  readonly hash: (password: string) => Effect.Effect<string>
  /** Never fails: a malformed stored hash is simply not valid. */
  readonly verify: (storedHash: string, password: string) => Effect.Effect<PasswordCheck>
  /**
   * Does the work of one verification against nothing, so a sign-in for an unknown e-mail takes as
   * long as one for a known one (no account enumeration by timing).
   */
  readonly burn: (password: string) => Effect.Effect<void>
}

export class PasswordHashing extends Context.Service<PasswordHashing, PasswordHashingService>()(
  "@folio/domain/PasswordHashing"
) {}
