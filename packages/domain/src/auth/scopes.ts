// The forms service's API key scopes, exactly as the spec lists them.
import { Schema } from "effect"

export const FORMS_SCOPES = [
  "forms:read",
  "forms:write",
  "forms:publish",
  "responses:read",
  "responses:partial:read",
  "assets:write",
  "files:read"
] as const

export const Scope = Schema.Literals(FORMS_SCOPES)
export type Scope = typeof Scope.Type

export const isScope = (value: string): value is Scope =>
  (FORMS_SCOPES as ReadonlyArray<string>).includes(value)
