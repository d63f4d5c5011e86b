// The PasskeyCeremony adapter over @simplewebauthn/server, driven by a software authenticator:
// options for this relying party (RP id = PUBLIC_ORIGIN's host, discoverable credentials), a
// registration and a sign-in that verify, and refusals for another origin, another challenge, a
// replayed counter and malformed input.
import { makeSimpleWebAuthnCeremony } from "@folio/adapters-integrations"
import { Effect, Option } from "effect"
import { describe, expect, it } from "vitest"
import { makeSoftAuthenticator } from "../support/soft-authenticator.js"

const ORIGIN = "https://folio.example:8443"
const ceremony = makeSimpleWebAuthnCeremony({ publicOrigin: ORIGIN })

type CreationOptions = {
  challenge: string
  rp: { id: string }
  user: { id: string }
  authenticatorSelection: { residentKey: string; userVerification: string }
}
type RequestOptions = { challenge: string; rpId: string; userVerification: string }

const register = async (authenticator = makeSoftAuthenticator(ORIGIN)) => {
  const begun = await Effect.runPromise(
    ceremony.registrationOptions({ userId: "user-1", email: "a@example.test", displayName: "A", exclude: [] })
  )
  const options = begun.options as CreationOptions
  const response = authenticator.register(options)
  const verified = await Effect.runPromise(ceremony.verifyRegistration(response, begun.challenge))
  return { authenticator, begun, options, verified }
}

describe("PasskeyCeremony over @simplewebauthn/server", () => {
  it("asks for a discoverable credential of this RP, user verification preferred", async () => {
    const { options } = await register()
    expect(options.rp.id).toBe("folio.example")
    expect(options.authenticatorSelection.residentKey).toBe("required")
    expect(options.authenticatorSelection.userVerification).toBe("preferred")
    const signIn = (await Effect.runPromise(ceremony.authenticationOptions)).options as RequestOptions
    expect(signIn.rpId).toBe("folio.example")
    expect(signIn.userVerification).toBe("preferred")
  })

  it("registers a credential and verifies a sign-in with it, counting up", async () => {
    const { authenticator, verified } = await register()
    const credential = Option.getOrThrow(verified)
    expect(credential.credentialId).toBe(authenticator.credentialId)
    expect(credential.transports).toEqual(["internal"])
    const begun = await Effect.runPromise(ceremony.authenticationOptions)
    const response = authenticator.authenticate(begun.options as RequestOptions)
    expect(ceremony.credentialIdOf(response)).toEqual(Option.some(authenticator.credentialId))
    const counter = await Effect.runPromise(
      ceremony.verifyAuthentication(response, begun.challenge, credential)
    )
    expect(counter).toEqual(Option.some(1))
    // The same assertion against a credential already at counter 1 is a replay.
    const replay = await Effect.runPromise(
      ceremony.verifyAuthentication(response, begun.challenge, { ...credential, counter: 5 })
    )
    expect(Option.isNone(replay)).toBe(true)
  })

  it("refuses a response for another challenge or from another origin", async () => {
    const { verified } = await register()
    const credential = Option.getOrThrow(verified)
    const other = await register(makeSoftAuthenticator("https://evil.example"))
    expect(Option.isNone(other.verified)).toBe(true)
    const begun = await Effect.runPromise(
      ceremony.registrationOptions({ userId: "u", email: "b@x.test", displayName: "B", exclude: [] })
    )
    const wrongChallenge = makeSoftAuthenticator(ORIGIN).register(begun.options as CreationOptions)
    expect(
      Option.isNone(
        await Effect.runPromise(ceremony.verifyRegistration(wrongChallenge, "AAAAAAAAAAAAAAAAAAAAAA"))
      )
    ).toBe(true)
    const signIn = await Effect.runPromise(ceremony.authenticationOptions)
    const foreign = makeSoftAuthenticator("https://evil.example")
    foreign.register({ challenge: "x", rp: { id: "folio.example" }, user: { id: "u" } })
    const response = foreign.authenticate(signIn.options as RequestOptions)
    expect(
      Option.isNone(
        await Effect.runPromise(ceremony.verifyAuthentication(response, signIn.challenge, credential))
      )
    ).toBe(true)
  })

  it("answers none for malformed input instead of failing", async () => {
    for (const junk of [null, 42, "text", {}, { id: "x" }, { id: "x", response: {} }]) {
      expect(Option.isNone(await Effect.runPromise(ceremony.verifyRegistration(junk, "AAAA")))).toBe(true)
    }
    expect(Option.isNone(ceremony.credentialIdOf({ id: "not base64url!", response: {} }))).toBe(true)
  })
})
