// Locally signed download URLs (filesystem and memory blob stores): an HMAC-SHA256 over the object
// key, the expiry and the suggested file name, checked in constant time by the download route.
import { constantTimeEqual, hmacSha256Hex } from "./digest.js"

export interface BlobUrlClaims {
  readonly key: string
  /** Expiry, epoch seconds. */
  readonly expiresAt: number
  readonly filename?: string | undefined
}

// Newline-separated fields cannot be confused with one another: keys and expiries never contain
// a newline, and the file name comes last.
const stringToSign = (claims: BlobUrlClaims): string =>
  ["folio-blob-v1", claims.key, String(claims.expiresAt), claims.filename ?? ""].join("\n")

export const signBlobClaims = (claims: BlobUrlClaims, secret: string): string =>
  hmacSha256Hex(secret, stringToSign(claims))

/** The path and query of a signed URL, to append to the public origin. */
export const signedBlobPath = (claims: BlobUrlClaims, secret: string): string => {
  const query = [
    `exp=${claims.expiresAt}`,
    ...(claims.filename === undefined ? [] : [`fn=${encodeURIComponent(claims.filename)}`]),
    `sig=${signBlobClaims(claims, secret)}`
  ].join("&")
  const path = claims.key.split("/").map(encodeURIComponent).join("/")
  return `/blobs/${path}?${query}`
}

export type BlobSignatureCheck = "valid" | "expired" | "invalid"

export const verifyBlobSignature = (
  claims: BlobUrlClaims,
  signature: string,
  secret: string,
  nowSeconds: number
): BlobSignatureCheck => {
  if (!/^[0-9a-f]{64}$/.test(signature) || !Number.isSafeInteger(claims.expiresAt)) return "invalid"
  if (!constantTimeEqual(signBlobClaims(claims, secret), signature)) return "invalid"
  return claims.expiresAt < nowSeconds ? "expired" : "valid"
}

/** RFC 6266 / 5987 `Content-Disposition` for a suggested download name (ASCII fallback + UTF-8). */
export const attachmentDisposition = (filename: string): string => {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_")
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`
}
