// Scopes as identity sees them: plain strings. Each service owns its scope set (forms/scopes.ts)
// and hands it over where identity issues keys or parses a scope list, so identity names none.
import { Effect } from "effect"
import { InvalidScopeList } from "./errors.js"
import type { ServiceName } from "./service.js"

/** The scopes a key of `service` may carry. */
export interface ScopeSet {
  readonly service: ServiceName
  readonly scopes: ReadonlyArray<string>
  /** What members may give the keys they create until an admin changes it (the console). */
  readonly memberDefaults: ReadonlyArray<string>
}

/** Parses a comma-separated scope list of one service; `all` stands for every scope of its set. */
export const parseScopeList = (
  text: string,
  set: ScopeSet
): Effect.Effect<ReadonlyArray<string>, InvalidScopeList> => {
  const parts = text
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
  if (parts.length === 1 && parts[0] === "all") return Effect.succeed([...set.scopes])
  const unknown = parts.findIndex((s) => !set.scopes.includes(s))
  if (parts.length === 0 || unknown >= 0) {
    return Effect.fail(
      new InvalidScopeList({
        known: set.scopes,
        issues: [{ path: ["scopes", Math.max(unknown, 0)], rule: parts.length === 0 ? "required" : "enum" }]
      })
    )
  }
  return Effect.succeed([...new Set(parts)])
}
