// Port: identifier generation. A port (not a global) so tests can make ids deterministic; the
// random source lives in its adapter (IdGenLive in @folio/adapters-storage).
import { Context, type Effect } from "effect"

export interface IdGenService {
  /** Random UUID v4, for ids that must reveal nothing (secrets, assignments). */
  readonly uuid: Effect.Effect<string>
  /** Time-ordered UUID v7, for rows listed in creation order. */
  readonly uuidV7: Effect.Effect<string>
  /** `n` cryptographically random bytes. */
  readonly randomBytes: (n: number) => Effect.Effect<Uint8Array>
}

export class IdGen extends Context.Service<IdGen, IdGenService>()("@folio/domain/IdGen") {}
