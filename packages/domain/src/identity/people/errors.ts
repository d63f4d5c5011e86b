// The failures of people's use cases (sign-in, sessions, invitations, members, the console's
// workspace actions), named for what happened. Messages are value-free and, where telling more
// would reveal whether an account exists, deliberately the same.
import { Data } from "effect"
import { NamedError, RefusedInput } from "../../kernel/errors.js"

/** The one answer to every failed sign-in, whether or not the account exists. */
export class InvalidCredentials extends NamedError("InvalidCredentials", "email or password is wrong") {}

/** A passkey sign-in or registration whose response did not verify (or whose ceremony expired). */
export class PasskeyRejected extends NamedError("PasskeyRejected", "the passkey could not be verified") {}

/** The account's or the address's sign-in budget is spent; the same for known and unknown e-mails. */
export class TooManyAttempts extends Data.TaggedError("TooManyAttempts")<{
  readonly retryAfterSeconds: number
}> {
  override get message() {
    return "too many sign-in attempts; try again later"
  }
}

/** No session, or one past its idle or absolute lifetime. */
export class NotSignedIn extends NamedError("NotSignedIn", "not signed in") {}

/** The actor's role may not run the operation (the console table). */
export class NotAllowed extends Data.TaggedError("NotAllowed")<{ readonly operation: string }> {
  override get message() {
    return "your role in this workspace does not allow this"
  }
}

/** The signed-in person is not a member of the workspace asked for (or it does not exist). */
export class NotAMember extends NamedError("NotAMember", "workspace not found") {}

/** An invitation, reset or setup link that is unknown, used, expired or revoked: one answer for all. */
export class LinkInvalid extends NamedError("LinkInvalid", "this link is invalid or has expired") {}

/** The change would leave the workspace without an owner. */
export class LastOwner extends NamedError("LastOwner", "a workspace keeps at least one owner") {}

export class MemberNotFound extends NamedError("MemberNotFound", "no such member in the workspace") {}
export class PasskeyNotFound extends NamedError("PasskeyNotFound", "no such passkey") {}
export class SessionNotFound extends NamedError("SessionNotFound", "no such session") {}
export class InvitationNotFound extends NamedError("InvitationNotFound", "no such pending invitation") {}

/** The account already belongs to the workspace (an invitation for a member). */
export class AlreadyMember extends NamedError("AlreadyMember", "already a member of this workspace") {}

/** Removing the passkey or password would leave the account no way to sign in. */
export class LastSignInMethod extends NamedError(
  "LastSignInMethod",
  "keep a password or another passkey before removing this one"
) {}

/** The current password given to change it is wrong. */
export class CurrentPasswordWrong extends NamedError("CurrentPasswordWrong", "current password is wrong") {}

/** Passwords: 10 to 256 characters (NIST 800-63B: length, not composition rules). */
export class WeakPassword extends RefusedInput("WeakPassword", "password must be 10 to 256 characters", [
  { path: ["password"], rule: "length" }
]) {}

export class InvalidEmail extends RefusedInput("InvalidEmail", "enter a valid e-mail address", [
  { path: ["email"], rule: "format" }
]) {}

export class InvalidDisplayName extends RefusedInput(
  "InvalidDisplayName",
  "name must be 1 to 100 characters",
  [{ path: ["displayName"], rule: "length" }]
) {}

/** A member asked for a scope the workspace does not allow members (memberKeyScopes). */
export class ScopeNotAllowed extends Data.TaggedError("ScopeNotAllowed")<{
  readonly allowed: ReadonlyArray<string>
}> {
  override get message() {
    return `members may create keys only with these scopes: ${this.allowed.join(", ") || "none"}`
  }
}

/** A key's expiry must lie in the future, at most ten years ahead. */
export class InvalidExpiry extends RefusedInput(
  "InvalidExpiry",
  "expiry must be a future date within 10 years",
  [{ path: ["expiresAt"], rule: "range" }]
) {}

export class InvalidKeyName extends RefusedInput("InvalidKeyName", "key name must be 1 to 100 characters", [
  { path: ["name"], rule: "length" }
]) {}

/**
 * An invitation for an e-mail that already has an account, opened by someone not signed in: they
 * sign in first, then accept (the link alone never signs anyone in to an existing account).
 */
export class SignInToAccept extends NamedError(
  "SignInToAccept",
  "an account with this e-mail exists; sign in to accept"
) {}

export class InvalidPasskeyName extends RefusedInput(
  "InvalidPasskeyName",
  "passkey name must be 1 to 100 characters",
  [{ path: ["name"], rule: "length" }]
) {}
