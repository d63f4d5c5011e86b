// The one shape of a keyed forms handler: the operation's scopes from the domain's table (the same
// table the request guard reads), then the use case, with every failure as its REST error through the
// forms error table.
import { OPERATION_SCOPES, type Operation } from "@folio/domain"
import { Effect } from "effect"
import { requireScopes } from "../shared/index.js"
import { FormsErrors, type FormsSurfaceError } from "./errors.js"

/** Scope check, then the use case, with every failure as its REST error. */
export const formsRoute = <A, E extends FormsSurfaceError, R>(
  operation: Operation,
  effect: Effect.Effect<A, E, R>
) =>
  Effect.andThen(requireScopes(...OPERATION_SCOPES[operation]), effect).pipe(Effect.catch(FormsErrors.fail))
