// Port: the WebAuthn ceremonies (passkeys), done by a maintained library in the adapter
// (@simplewebauthn/server) for the relying party of the deployment's PUBLIC_ORIGIN. The domain keeps
// the challenge (single-use, short-lived) and the credentials; the adapter builds the browser's
// options and verifies its responses. Options and responses are the library's JSON, passed through.
import { Context, type Effect, type Option } from "effect"

export interface CeremonyOptions {
  /** PublicKeyCredentialCreationOptionsJSON / PublicKeyCredentialRequestOptionsJSON for the browser. */
  readonly options: unknown
  /** base64url challenge inside `options`, kept by the domain until the response comes back. */
  readonly challenge: string
}

export interface VerifiedRegistration {
  readonly credentialId: string
  readonly publicKey: string
  readonly counter: number
  readonly transports: ReadonlyArray<string>
}

export interface StoredCredential {
  readonly credentialId: string
  readonly publicKey: string
  readonly counter: number
  readonly transports: ReadonlyArray<string>
}

export interface PasskeyCeremonyService {
  readonly registrationOptions: (input: {
    /** The account id (opaque user handle). */
    readonly userId: string
    readonly email: string
    readonly displayName: string
    /** The account's credentials, so the same authenticator is not registered twice. */
    readonly exclude: ReadonlyArray<StoredCredential>
  }) => Effect.Effect<CeremonyOptions>
  /** None when the response does not verify against the challenge, origin and RP id. */
  readonly verifyRegistration: (
    response: unknown,
    expectedChallenge: string
  ) => Effect.Effect<Option.Option<VerifiedRegistration>>
  /** Discoverable-credential sign-in: no e-mail asked first. */
  readonly authenticationOptions: Effect.Effect<CeremonyOptions>
  /** The credential id a sign-in response names (to look it up), none when it is malformed. */
  readonly credentialIdOf: (response: unknown) => Option.Option<string>
  /** The new signature counter when the response verifies, none otherwise. */
  readonly verifyAuthentication: (
    response: unknown,
    expectedChallenge: string,
    credential: StoredCredential
  ) => Effect.Effect<Option.Option<number>>
}

export class PasskeyCeremony extends Context.Service<PasskeyCeremony, PasskeyCeremonyService>()(
  "@folio/domain/PasskeyCeremony"
) {}
