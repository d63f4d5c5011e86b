// SQL failures as domain errors: constraint names we rely on become typed failures, the rest
// become StorageError (logged as internal, never shown to clients).
import { StorageError } from "@folio/domain"
import { Effect } from "effect"
import { SqlError } from "effect/sql"

/** Whether `error` is a unique violation of `constraint` (a unique index counts under its own name). */
export const isUniqueViolation = (error: SqlError.SqlError, constraint: string): boolean =>
  error.reason._tag === "UniqueViolation" && error.reason.constraint === constraint

export const toStorageError = (error: SqlError.SqlError): StorageError =>
  new StorageError({ message: "database operation failed", cause: error })

/** Maps any remaining SqlError of an effect to StorageError. */
export const orStorageError = <A, E, R>(effect: Effect.Effect<A, E | SqlError.SqlError, R>) =>
  Effect.catchIf(effect, SqlError.isSqlError, (e) => Effect.fail(toStorageError(e))) as Effect.Effect<
    A,
    Exclude<E, SqlError.SqlError> | StorageError,
    R
  >
