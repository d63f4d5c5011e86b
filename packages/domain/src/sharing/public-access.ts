// Whether an account's public side answers at all: its resources at /s/{slug} (and everything under
// them, artifacts' own origins included) and its upload requests at /u/{token}. A suspended account's
// are answered exactly as if they did not exist (the same 404 page as an unknown slug), so a visitor
// learns nothing of the suspension; re-enabling the account brings them back unchanged.
import type { Visibility } from "./resources/resource.js"

/** What a public answer needs to know of the owning account. */
export interface PublicOwner {
  readonly suspended: boolean
}

/** Whether an account's public URLs answer (its upload requests take files only then, too). */
export const ownerServesPublicly = (owner: PublicOwner): boolean => !owner.suspended

/** Whether a resource's public URLs show it: not private, and its account not suspended. */
export const resourceServedPublicly = (r: { readonly visibility: Visibility }, owner: PublicOwner): boolean =>
  ownerServesPublicly(owner) && r.visibility !== "private"
