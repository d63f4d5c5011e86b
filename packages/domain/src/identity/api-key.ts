// API key format `<key_prefix>_<prefix>_<secret>`: Folio's key prefix (one for every service), a
// public lookup prefix, and a secret. Only the SHA-256 of the whole key is stored; lookup is by the
// prefix and the stored hash is compared in constant time.
import { constantTimeEqual, sha256Hex, toBase64Url } from "../kernel/digest.js"

/** First segment of every key of every service, so leaked keys are easy to recognise and scan for. */
export const KEY_PREFIX = "folio"
const PREFIX_BYTES = 9 // 12 base64url characters
const SECRET_BYTES = 32 // 43 base64url characters

export interface ParsedApiKey {
  readonly prefix: string
  readonly secret: string
}

const alnum = (bytes: Uint8Array) => toBase64Url(bytes).replace(/[-_]/g, "x")

/** Builds a plaintext key from random bytes (PREFIX_BYTES + SECRET_BYTES of them). */
export const formatApiKey = (random: Uint8Array): { readonly plaintext: string; readonly prefix: string } => {
  const prefix = alnum(random.subarray(0, PREFIX_BYTES))
  const secret = alnum(random.subarray(PREFIX_BYTES, PREFIX_BYTES + SECRET_BYTES))
  return { plaintext: `${KEY_PREFIX}_${prefix}_${secret}`, prefix }
}

export const API_KEY_RANDOM_BYTES = PREFIX_BYTES + SECRET_BYTES

const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}_([A-Za-z0-9]{12})_([A-Za-z0-9]{43})$`)

/** Splits a presented key; undefined when it cannot be one of ours (no lookup needed). */
export const parseApiKey = (presented: string): ParsedApiKey | undefined => {
  const match = KEY_PATTERN.exec(presented)
  if (match === null || match[1] === undefined || match[2] === undefined) return undefined
  return { prefix: match[1], secret: match[2] }
}

export const hashApiKey = (plaintext: string): string => sha256Hex(plaintext)

/** True when the presented key hashes to the stored hash (constant-time comparison). */
export const verifyApiKey = (presented: string, storedHash: string): boolean =>
  constantTimeEqual(hashApiKey(presented), storedHash)
