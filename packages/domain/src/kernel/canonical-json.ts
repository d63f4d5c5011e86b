// RFC 8785 (JSON Canonicalization Scheme) serialization, delegated to the reference implementation.
// Used for content digests such as settingsSignature, where key order must never change the result.
import * as jcs from "canonicalize"

type Serialize = (input: unknown) => string | undefined

// The package is CommonJS with an ESM-style declaration file; accept both shapes of the import.
const serialize: Serialize =
  typeof (jcs as unknown as { default?: unknown }).default === "function"
    ? (jcs as unknown as { default: Serialize }).default
    : (jcs as unknown as Serialize)

/** Canonical JSON text of a JSON value (undefined members are dropped, as JSON.stringify does). */
export const canonicalJson = (value: unknown): string => serialize(value) ?? "null"
