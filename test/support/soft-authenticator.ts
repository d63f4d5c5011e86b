// A software WebAuthn authenticator (P-256, "none" attestation) for HTTP tests: it answers the
// options the server sends exactly as a browser's platform authenticator would, signing with a key
// made here, so a passkey can be registered and used without a browser. Chromium's virtual
// authenticator covers the real browser path (test/browser).
import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto"
import { isoCBOR } from "@simplewebauthn/server/helpers"

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url")
const sha256 = (data: Uint8Array | string) => new Uint8Array(createHash("sha256").update(data).digest())

export interface SoftAuthenticator {
  readonly credentialId: string
  /** The response to registration options (PublicKeyCredentialCreationOptionsJSON). */
  readonly register: (options: { challenge: string; rp: { id?: string }; user: { id: string } }) => unknown
  /** The response to authentication options (PublicKeyCredentialRequestOptionsJSON). */
  readonly authenticate: (options: { challenge: string; rpId?: string }) => unknown
}

export const makeSoftAuthenticator = (origin: string): SoftAuthenticator => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" })
  const credentialId = new Uint8Array(randomBytes(32))
  const jwk = publicKey.export({ format: "jwk" }) as { x: string; y: string }
  const cose = isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x, "base64url"))],
      [-3, new Uint8Array(Buffer.from(jwk.y, "base64url"))]
    ])
  )
  let counter = 0
  let userHandle = ""
  const rpIdOf = (id: string | undefined) => id ?? new URL(origin).hostname

  const authData = (rpId: string, flags: number, attested?: Uint8Array) => {
    const count = new Uint8Array(4)
    new DataView(count.buffer).setUint32(0, counter)
    return Buffer.concat([
      sha256(rpId),
      Uint8Array.of(flags),
      count,
      ...(attested === undefined ? [] : [attested])
    ])
  }

  const sign = (key: KeyObject, data: Uint8Array) => {
    const signer = createSign("SHA256")
    signer.update(data)
    return new Uint8Array(signer.sign(key))
  }

  return {
    credentialId: b64url(credentialId),
    register: (options) => {
      userHandle = options.user.id
      const clientData = JSON.stringify({
        type: "webauthn.create",
        challenge: options.challenge,
        origin,
        crossOrigin: false
      })
      const idLength = new Uint8Array(2)
      new DataView(idLength.buffer).setUint16(0, credentialId.length)
      const attested = Buffer.concat([new Uint8Array(16), idLength, credentialId, cose])
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const data = authData(rpIdOf(options.rp.id), 0x45, attested)
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", new Uint8Array(data)]
        ]) as never
      )
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64url(new TextEncoder().encode(clientData)),
          attestationObject: b64url(attestationObject),
          transports: ["internal"]
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform"
      }
    },
    authenticate: (options) => {
      counter += 1
      const clientData = new TextEncoder().encode(
        JSON.stringify({ type: "webauthn.get", challenge: options.challenge, origin, crossOrigin: false })
      )
      const data = new Uint8Array(authData(rpIdOf(options.rpId), 0x05))
      const signature = sign(privateKey, Buffer.concat([data, sha256(clientData)]))
      return {
        id: b64url(credentialId),
        rawId: b64url(credentialId),
        type: "public-key",
        response: {
          clientDataJSON: b64url(clientData),
          authenticatorData: b64url(data),
          signature: b64url(signature),
          userHandle
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform"
      }
    }
  }
}
