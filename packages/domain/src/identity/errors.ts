// The failures of provisioning tenants and keys (the CLI and the first start), named for what
// happened. The failures of a keyed request (bad key, budget, scope) are the kernel's: every service
// answers them. Messages still say "workspace", the only tenant the CLI offers so far.
import { Data } from "effect"
import { type Issue, NamedError, RefusedInput } from "../kernel/errors.js"

/** A tenant's name must be 1 to 200 characters once trimmed. */
export class InvalidTenantName extends RefusedInput(
  "InvalidTenantName",
  "workspace name must be 1 to 200 characters",
  [{ path: ["name"], rule: "length" }]
) {}

/** A scope list that is empty or names a scope the key's service does not have. */
export class InvalidScopeList extends Data.TaggedError("InvalidScopeList")<{
  readonly known: ReadonlyArray<string>
  readonly issues: ReadonlyArray<Issue>
}> {
  override get message() {
    return `scopes must be a comma-separated subset of: ${this.known.join(", ")} (or "all")`
  }
}

/** The account that owns the key is disabled (from the CLI); its keys are refused until enabled. */
export class AccountDisabled extends NamedError("AccountDisabled", "account is disabled") {}

/** No tenant with that id (a forms workspace, a sharing account). */
export class TenantNotFound extends NamedError("TenantNotFound", "workspace not found") {}

export class ApiKeyNotFound extends NamedError(
  "ApiKeyNotFound",
  "no active key with that id in the workspace"
) {}
