// Fresh random text for the ids minted per request (request ids, visitor ids, trace and span ids):
// drawn from the system's CSPRNG 64 KiB at a time and encoded once, each id a slice of that text.
// Asking for each id (randomUUID's refill of 128, or randomBytes per id) meant a call into OpenSSL
// costing microseconds, a visible share of a redirect or of a sampled span. V8 keeps a slice as a
// view of the pool's text, so the text lives as long as an id cut from it.
import { randomBytes } from "node:crypto"

const POOL_BYTES = 65_536

/** A source of `chars` fresh characters at a time (never handed out twice) in `encoding`. */
const randomTextPool = (encoding: "hex" | "base64url") => {
  let text = ""
  let at = 0
  return (chars: number): string => {
    if (at + chars > text.length) {
      text = randomBytes(POOL_BYTES).toString(encoding)
      at = 0
    }
    const start = at
    at += chars
    return text.slice(start, at)
  }
}

/** `chars` fresh random lowercase hex digits. */
export const randomHexChars = randomTextPool("hex")

/** `chars` fresh random base64url characters (6 random bits each). */
export const randomBase64UrlChars = randomTextPool("base64url")
