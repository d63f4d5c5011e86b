// The forms service's API key scopes, exactly as the spec lists them. Identity stores and checks
// scopes as plain strings; this set is what a forms key may carry.
import { Schema } from "effect"
import type { ScopeSet } from "../identity/scopes.js"

export const FORMS_SCOPES = [
  "forms:read",
  "forms:write",
  "forms:publish",
  "responses:read",
  "responses:partial:read",
  "assets:write",
  "files:read"
] as const

export const FormsScope = Schema.Literals(FORMS_SCOPES)
export type FormsScope = typeof FormsScope.Type

/** What identity needs to issue and parse forms keys. */
export const FORMS_SCOPE_SET: ScopeSet = {
  service: "forms",
  scopes: FORMS_SCOPES,
  // Reading forms and responses; writing, publishing and partial answers are an admin's to grant.
  memberDefaults: ["forms:read", "responses:read"]
}
