// The authorization server's keys, derived from the app's secret: every instance derives the same
// signing key and cookie keys, so a token signed or a cookie set by one instance is read by another
// (no per-instance random keys), and rotating the secret rotates them all.
import { createECDH, hkdfSync } from "node:crypto"

const derive = (secret: string, purpose: string, bytes: number): Buffer =>
  Buffer.from(hkdfSync("sha256", secret, "folio-oauth", purpose, bytes))

/** The private signing key (ES256, P-256) as a JWK: what oidc-provider's `jwks` takes. */
export interface SigningJwk {
  readonly kty: "EC"
  readonly crv: "P-256"
  readonly x: string
  readonly y: string
  readonly d: string
  readonly kid: string
  readonly alg: "ES256"
  readonly use: "sig"
}

/**
 * A P-256 key whose private scalar is 32 bytes of HKDF output (below the group order but with
 * negligible probability, in which case the next derivation counter is tried).
 */
export const signingJwkOf = (secret: string): SigningJwk => {
  for (let attempt = 0; ; attempt++) {
    const d = derive(secret, `signing-key:${attempt}`, 32)
    try {
      const ecdh = createECDH("prime256v1")
      ecdh.setPrivateKey(d)
      const point = ecdh.getPublicKey()
      const x = point.subarray(1, 33).toString("base64url")
      const y = point.subarray(33, 65).toString("base64url")
      // The key id names the public key only (a hash-free prefix is enough to tell rotations apart).
      const kid = derive(`${x}.${y}`, "kid", 9).toString("base64url")
      return { kty: "EC", crv: "P-256", x, y, d: d.toString("base64url"), kid, alg: "ES256", use: "sig" }
    } catch (e) {
      if (attempt > 3) throw e
    }
  }
}

/** The keys oidc-provider signs its cookies with (the interaction, resume and session cookies). */
export const cookieKeysOf = (secret: string): ReadonlyArray<string> => [
  derive(secret, "cookie-key", 32).toString("base64url")
]
