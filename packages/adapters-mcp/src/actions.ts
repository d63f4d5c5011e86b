// Tools of both endpoints are flat objects with an `action`: the fields an action needs are
// optional in the schema, so each action checks its own with value-free issues.
import { RequestInvalid } from "@folio/adapters-http/shared"
import { Effect } from "effect"

/** Fails with RequestInvalid naming each missing field of the chosen action. */
export const need = <T extends object>(input: T, action: string, fields: ReadonlyArray<keyof T & string>) => {
  const missing = fields.filter((f) => (input as Record<string, unknown>)[f] === undefined)
  return missing.length === 0
    ? Effect.void
    : Effect.fail(
        new RequestInvalid({
          message: `action ${action} needs ${missing.join(", ")}`,
          issues: missing.map((f) => ({ path: [f], rule: "required" }))
        })
      )
}
