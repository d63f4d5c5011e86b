// SHA-256 and HMAC-SHA-256 over strings and bytes, in pure code (no node:crypto), plus a
// constant-time comparison for secrets and signatures.
import { hmac } from "@noble/hashes/hmac"
import { sha256 } from "@noble/hashes/sha2"

const encoder = new TextEncoder()

const toBytes = (input: string | Uint8Array): Uint8Array =>
  typeof input === "string" ? encoder.encode(input) : input

export const toHex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

export const toBase64Url = (bytes: Uint8Array): string => {
  let binary = ""
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

export const fromBase64Url = (text: string): Uint8Array | undefined => {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined
  const padded = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4)
  try {
    const binary = atob(padded)
    const out = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i)
    return out
  } catch {
    return undefined
  }
}

export const sha256Bytes = (input: string | Uint8Array): Uint8Array => sha256(toBytes(input))

export const sha256Hex = (input: string | Uint8Array): string => toHex(sha256Bytes(input))

export const hmacSha256 = (key: string | Uint8Array, message: string | Uint8Array): Uint8Array =>
  hmac(sha256, toBytes(key), toBytes(message))

export const hmacSha256Hex = (key: string | Uint8Array, message: string | Uint8Array): string =>
  toHex(hmacSha256(key, message))

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export const constantTimeEqual = (a: string, b: string): boolean => {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  let diff = x.length ^ y.length
  const n = Math.max(x.length, y.length)
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0)
  return diff === 0
}
