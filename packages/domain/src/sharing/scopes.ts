// The sharing service's API key scopes, as the spec lists them. They do not include each other: a
// key with only `write` cannot call a GET route.
import { Schema } from "effect"
import type { ScopeSet } from "../identity/scopes.js"

export const SHARING_SCOPES = ["read", "write", "delete"] as const

export const SharingScope = Schema.Literals(SHARING_SCOPES)
export type SharingScope = typeof SharingScope.Type

/** What identity needs to issue and parse sharing keys. */
export const SHARING_SCOPE_SET: ScopeSet = { service: "sharing", scopes: SHARING_SCOPES }
