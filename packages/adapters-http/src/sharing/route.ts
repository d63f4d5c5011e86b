// The one shape of a keyed sharing handler: the operation's scopes from the domain's table (the same
// table the request guard and the OpenAPI document read), then the use case, with every failure as
// its REST error through the sharing error table.
import { SHARING_OPERATION_SCOPES, type SharingOperation } from "@folio/domain"
import { Effect } from "effect"
import { requireScopes } from "../shared/index.js"
import { SharingErrors, type SharingSurfaceError } from "./errors.js"

/** Scope check, then the use case, with every failure as its REST error. */
export const sharingRoute = <A, E extends SharingSurfaceError, R>(
  operation: SharingOperation,
  effect: Effect.Effect<A, E, R>
) =>
  Effect.andThen(requireScopes(...SHARING_OPERATION_SCOPES[operation]), effect).pipe(
    Effect.catch(SharingErrors.fail)
  )
