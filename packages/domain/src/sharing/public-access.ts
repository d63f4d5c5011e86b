// Whether an account's public side answers at all: its resources at /s/{slug} (and everything under
// them, artifacts' own origins included) and its upload requests at /u/{token}. A suspended account's
// are answered exactly as if they did not exist (the same 404 page as an unknown slug), so a visitor
// learns nothing of the suspension; re-enabling the account brings them back unchanged.
import type { SuspendedAccounts } from "../identity/ports/suspended-accounts.js"
import type { Visibility } from "./resources/resource.js"

/** Whether an account's public URLs answer (its upload requests take files only then, too). */
export const ownerServesPublicly = (accounts: SuspendedAccounts["Service"], tenantId: string): boolean =>
  !accounts.isSuspended(tenantId)

/** Whether a resource's public URLs show it: not private, and its account not suspended. */
export const resourceServedPublicly = (
  accounts: SuspendedAccounts["Service"],
  r: { readonly tenantId: string; readonly visibility: Visibility }
): boolean => servedPubliclyWhen(r, accounts.isSuspended(r.tenantId))

/** The same rule over what the caller knows of the account already (the public-visit decision's). */
export const servedPubliclyWhen = (
  r: { readonly visibility: Visibility },
  ownerSuspended: boolean
): boolean => r.visibility !== "private" && !ownerSuspended
