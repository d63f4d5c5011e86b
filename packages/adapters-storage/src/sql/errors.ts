// SQL failures as domain errors: constraint names we rely on become typed failures, the rest
// become StorageError (logged as internal, never shown to clients).
import type { SqlError } from "@effect/sql/SqlError"
import { StorageError } from "@folio/domain"
import { Effect } from "effect"

/** The Postgres error behind an SqlError, when there is one. */
export const pgErrorOf = (error: SqlError): { readonly code?: string; readonly constraint?: string } => {
  const cause = error.cause as { code?: unknown; constraint?: unknown } | undefined
  return {
    ...(typeof cause?.code === "string" ? { code: cause.code } : {}),
    ...(typeof cause?.constraint === "string" ? { constraint: cause.constraint } : {})
  }
}

export const isUniqueViolation = (error: SqlError, constraint: string): boolean => {
  const pg = pgErrorOf(error)
  return pg.code === "23505" && pg.constraint === constraint
}

export const toStorageError = (error: SqlError): StorageError =>
  new StorageError({ message: "database operation failed", cause: error })

/** Maps any remaining SqlError of an effect to StorageError. */
export const orStorageError = <A, E, R>(effect: Effect.Effect<A, E | SqlError, R>) =>
  Effect.catchIf(
    effect,
    (e): e is SqlError => typeof e === "object" && e !== null && "_tag" in e && e._tag === "SqlError",
    (e) => Effect.fail(toStorageError(e))
  ) as Effect.Effect<A, Exclude<E, SqlError> | StorageError, R>
