// The PasskeyCeremony port over @simplewebauthn/server, for the relying party PUBLIC_ORIGIN names:
// its hostname is the RP id and its origin the only origin a response may come from.
import { PasskeyCeremony, type PasskeyCeremonyService, type StoredCredential } from "@folio/domain"
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server"
import { Effect, Layer, Option } from "effect"

/**
 * The library, loaded at the first ceremony: with its ASN.1 and X.509 stack it is ~0.3 s of a
 * start, and most processes (every CLI command, a server nobody signs in to) never run one.
 */
let loaded:
  | Promise<[typeof import("@simplewebauthn/server"), typeof import("@simplewebauthn/server/helpers")]>
  | undefined
const library = Effect.promise(() => {
  loaded ??= Promise.all([import("@simplewebauthn/server"), import("@simplewebauthn/server/helpers")])
  return loaded
})

export interface PasskeySettings {
  /** The deployment's PUBLIC_ORIGIN (scheme, host, port). */
  readonly publicOrigin: string
  /** Shown by the authenticator when a passkey is created. */
  readonly rpName?: string
}

/** A browser's JSON with the fields the library reads; anything else is no response of ours. */
const isCredentialJson = (u: unknown): u is { readonly id: string; readonly response: object } =>
  typeof u === "object" &&
  u !== null &&
  typeof (u as { id?: unknown }).id === "string" &&
  typeof (u as { response?: unknown }).response === "object" &&
  (u as { response?: unknown }).response !== null

/** The library throws on a malformed or non-matching response: both are simply "did not verify". */
const attempt = <A>(run: () => Promise<A | undefined>): Effect.Effect<Option.Option<A>> =>
  Effect.map(
    Effect.tryPromise({ try: run, catch: () => undefined }).pipe(Effect.orElseSucceed(() => undefined)),
    Option.fromNullishOr
  )

/** The transports a credential was seen with, when any (the field is left out otherwise). */
const transportsOf = (credential: StoredCredential) =>
  credential.transports.length === 0 ? {} : { transports: [...credential.transports] }

export const makeSimpleWebAuthnCeremony = (settings: PasskeySettings): PasskeyCeremonyService => {
  const origin = new URL(settings.publicOrigin).origin
  const rpID = new URL(settings.publicOrigin).hostname
  const rpName = settings.rpName ?? "Folio"
  /** What both verifications expect: this relying party, the challenge it issued, no UV required. */
  const expected = (expectedChallenge: string) => ({
    expectedChallenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false
  })
  return {
    registrationOptions: ({ userId, email, displayName, exclude }) =>
      Effect.map(
        Effect.flatMap(library, ([{ generateRegistrationOptions }]) =>
          Effect.promise(() =>
            generateRegistrationOptions({
              rpName,
              rpID,
              userName: email,
              userDisplayName: displayName,
              userID: new TextEncoder().encode(userId),
              attestationType: "none",
              excludeCredentials: exclude.map((c) => ({ id: c.credentialId, ...transportsOf(c) })),
              // Discoverable credentials: sign-in asks for no e-mail first.
              authenticatorSelection: { residentKey: "required", userVerification: "preferred" }
            })
          )
        ),
        (options) => ({ options, challenge: options.challenge })
      ),
    verifyRegistration: (response, expectedChallenge) =>
      isCredentialJson(response)
        ? Effect.flatMap(library, ([{ verifyRegistrationResponse }, { isoBase64URL }]) =>
            attempt(async () => {
              const result = await verifyRegistrationResponse({
                response: response as unknown as RegistrationResponseJSON,
                ...expected(expectedChallenge)
              })
              if (!result.verified) return undefined
              const credential = result.registrationInfo.credential
              return {
                credentialId: credential.id,
                publicKey: isoBase64URL.fromBuffer(credential.publicKey),
                counter: credential.counter,
                transports: credential.transports ?? []
              }
            })
          )
        : Effect.succeed(Option.none()),
    authenticationOptions: Effect.map(
      Effect.flatMap(library, ([{ generateAuthenticationOptions }]) =>
        Effect.promise(() => generateAuthenticationOptions({ rpID, userVerification: "preferred" }))
      ),
      (options) => ({ options, challenge: options.challenge })
    ),
    credentialIdOf: (response) =>
      isCredentialJson(response) && /^[A-Za-z0-9_-]{1,1364}$/.test(response.id)
        ? Option.some(response.id)
        : Option.none(),
    verifyAuthentication: (response, expectedChallenge, credential) =>
      isCredentialJson(response)
        ? Effect.flatMap(library, ([{ verifyAuthenticationResponse }, { isoBase64URL }]) =>
            attempt(async () => {
              const result = await verifyAuthenticationResponse({
                response: response as unknown as AuthenticationResponseJSON,
                ...expected(expectedChallenge),
                credential: {
                  id: credential.credentialId,
                  publicKey: isoBase64URL.toBuffer(credential.publicKey),
                  counter: credential.counter,
                  ...transportsOf(credential)
                }
              })
              return result.verified ? result.authenticationInfo.newCounter : undefined
            })
          )
        : Effect.succeed(Option.none())
  }
}

export const SimpleWebAuthnCeremonyLive = (settings: PasskeySettings) =>
  Layer.succeed(PasskeyCeremony, makeSimpleWebAuthnCeremony(settings))
