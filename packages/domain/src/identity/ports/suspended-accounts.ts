// Port: which accounts are suspended (disabled from the CLI), read without waiting, so every public
// request (the redirect's node:http fast path included) can ask at no cost. The adapter keeps the
// set in memory and is told of each change over the InvalidationBus topic ACCOUNTS_TOPIC.
import { Context } from "effect"

export interface SuspendedAccountsService {
  /** Whether the account is suspended, as this instance last heard. */
  readonly isSuspended: (tenantId: string) => boolean
}

export class SuspendedAccounts extends Context.Service<SuspendedAccounts, SuspendedAccountsService>()(
  "@folio/domain/SuspendedAccounts"
) {}

/** The InvalidationBus topic of account state changes: the key is the tenant id. */
export const ACCOUNTS_TOPIC = "accounts"
