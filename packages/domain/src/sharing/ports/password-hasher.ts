// Port: the slow hash of a resource's password (sharing-api.md: stored as a slow hash, never
// readable). The domain only stores and compares what the adapter makes; the algorithm and its cost
// live in the adapter (scrypt over node:crypto in adapters-storage/runtime).
import { Context, Effect } from "effect"

export interface PasswordHasherService {
  /** A self-describing hash of `password` (algorithm, parameters, salt and digest in one string). */
  readonly hash: (password: string) => Effect.Effect<string>
  /** Whether `password` is the one `hash` was made from (constant time); false for a foreign hash. */
  readonly verify: (password: string, hash: string) => Effect.Effect<boolean>
}

export class PasswordHasher extends Context.Service<PasswordHasher, PasswordHasherService>()(
  "@folio/domain/PasswordHasher"
) {}

/** The hash of a password a resource is given, or null when it is given none. */
export const hashPassword = (password: string | null | undefined) =>
  password === undefined || password === null
    ? Effect.succeed(null)
    : Effect.flatMap(Effect.service(PasswordHasher), (hasher) => hasher.hash(password))
