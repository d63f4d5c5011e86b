// The notification settings against the definition and the server: a receipt must name an email
// block, an enabled notification on a server without mail gets a warning, and what a completion queues.
import type { Issue } from "../../kernel/errors.js"
import type { FormDefinition } from "../definition/definition.js"
import type { FormSettings } from "../settings/settings.js"

/**
 * Where the receipt's block is named, within the settings (the path of a settings write's issues,
 * as the settings' own decoding reports them); a definition write's issues say `settings` first.
 */
export const RECEIPT_BLOCK_PATH = ["notifications", "respondentReceipt", "emailBlockId"] as const

/**
 * The receipt's block against a definition: it must be given when the receipt is on, and name an
 * `email` block (an interview has no blocks, so nothing it names can be one). Empty when it holds.
 */
export const notificationIssues = (
  settings: FormSettings,
  definition: Pick<FormDefinition, "blocks"> | null,
  prefix: ReadonlyArray<string> = []
): ReadonlyArray<Issue> => {
  const receipt = settings.notifications?.respondentReceipt
  if (receipt === undefined) return []
  const path = [...prefix, ...RECEIPT_BLOCK_PATH]
  if (receipt.emailBlockId === undefined)
    return receipt.enabled ? [{ path, rule: "required", expected: "the id of an email block" }] : []
  const block = definition?.blocks.find((b) => b.id === receipt.emailBlockId)
  if (block === undefined) return [{ path, rule: "danglingReference", expected: "the id of an email block" }]
  if (block.type !== "email") return [{ path, rule: "notAnEmailBlock", expected: "the id of an email block" }]
  return []
}

/** A warning a client can show beside a successful write: a stable code and a plain sentence. */
export interface WriteWarning {
  readonly code: string
  readonly message: string
}

/** Whether the settings ask for any e-mail. */
export const notificationsEnabled = (settings: FormSettings | null): boolean =>
  settings?.notifications?.responseEmail.enabled === true ||
  settings?.notifications?.respondentReceipt.enabled === true

/** The warnings of a stored form's settings on a server that can (or cannot) send mail. */
export const notificationWarnings = (
  settings: FormSettings | null,
  canSendMail: boolean
): ReadonlyArray<WriteWarning> =>
  !canSendMail && notificationsEnabled(settings)
    ? [
        {
          code: "email_not_configured",
          message:
            "this server has no mail transport (SMTP_URL), so notification e-mails are not sent; completions are logged instead"
        }
      ]
    : []

/** One e-mail a completion asks for: to an owner's address, or the receipt to the e-mail answer. */
export type PlannedNotification =
  | { readonly kind: "response"; readonly slot: string; readonly to: string }
  | { readonly kind: "receipt"; readonly slot: string; readonly blockId: string }

/**
 * The e-mails a completion of `answers` (collected under `definition`) asks for: one per distinct
 * recipient of `responseEmail`, and the receipt when its block is an email block of that version and
 * was answered. Each has a slot, stable for the response, that names the message (its Message-ID).
 */
export const plannedNotifications = (
  settings: FormSettings,
  definition: Pick<FormDefinition, "blocks">,
  answers: Readonly<Record<string, unknown>>
): ReadonlyArray<PlannedNotification> => {
  const out: Array<PlannedNotification> = []
  const owners = settings.notifications?.responseEmail
  if (owners?.enabled === true) {
    const seen = new Set<string>()
    owners.recipients.forEach((to, i) => {
      const key = to.toLowerCase()
      if (seen.has(key)) return
      seen.add(key)
      out.push({ kind: "response", slot: `r${i}`, to })
    })
  }
  const receipt = settings.notifications?.respondentReceipt
  const blockId = receipt?.emailBlockId
  if (receipt?.enabled === true && blockId !== undefined) {
    const block = definition.blocks.find((b) => b.id === blockId)
    const answer = answers[blockId]
    if (block?.type === "email" && typeof answer === "string" && answer !== "")
      out.push({ kind: "receipt", slot: "receipt", blockId })
  }
  return out
}
