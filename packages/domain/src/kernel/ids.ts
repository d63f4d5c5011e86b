// Identifiers: UUID v4 for opaque ids and UUID v7 (time-ordered) where insertion order helps
// keyset pagination and index locality. Formatting is pure; randomness comes from the IdGen port.
import { Schema } from "effect"

// Case-insensitive through its character classes, not a flag: JSON Schema patterns carry no flags,
// so the exported pattern accepts exactly what the decoder accepts.
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/u

export const Uuid = Schema.String.check(Schema.isPattern(UUID_PATTERN))

/** Whether a text is a UUID (any version, either case): what may be looked up as an id. */
export const isUuid = (text: string): boolean => UUID_PATTERN.test(text)

const hex = (bytes: Uint8Array): string => {
  let out = ""
  for (const b of bytes) out += b.toString(16).padStart(2, "0")
  return out
}

const format = (b: Uint8Array): string => {
  const h = hex(b)
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`
}

/** UUID v4 from 16 random bytes. */
export const uuidV4FromBytes = (random: Uint8Array): string => {
  const b = Uint8Array.from(random.subarray(0, 16))
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  return format(b)
}

/** UUID v7 (RFC 9562): 48-bit Unix milliseconds followed by random bits. */
export const uuidV7FromParts = (unixMillis: number, random: Uint8Array): string => {
  const b = Uint8Array.from(random.subarray(0, 16))
  let ms = Math.max(0, Math.floor(unixMillis))
  for (let i = 5; i >= 0; i--) {
    b[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x70
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80
  return format(b)
}
