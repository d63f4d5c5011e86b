// The `notification_email` job: one e-mail about one completed response (to an owner, or the
// respondent's receipt), queued in the completion's own write and sent through the Mailer port.
import { Clock, Context, Effect, Option } from "effect"
import { sha256Hex } from "../../kernel/digest.js"
import type { JobRecord, NewJob } from "../../kernel/jobs/job.js"
import {
  JobFailed,
  type JobOutcome,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { isInputBlockType } from "../definition/block-types.js"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { answerText } from "../responses/csv.js"
import { readStoredSettings, readVersionDefinition } from "../form.js"
import { type InterviewDefinition, readStoredInterviewDefinition } from "../interview/definition.js"
import { customAnswerText, isCustomAnswer } from "../interview/custom-answers.js"
import { withdrawalLinkFor } from "../responses/withdrawal.js"
import { type AnswerLine, composeReceipt, composeResponseEmail, isDeliverableAddress } from "./messages.js"
import type { PlannedNotification } from "./rules.js"

/** Attempts of one e-mail (with the queue's backoff, about five minutes of a mail server being down). */
export const NOTIFICATION_EMAIL_MAX_ATTEMPTS = 6

/**
 * Where the e-mails link to: the owners' summary to the response in the API; a research form's
 * receipt to the respondent's private withdrawal link, signed with `withdrawalSecret` (the secret the
 * page signs it with). Null: no link.
 */
export const NotificationLinks = Context.Reference<{
  readonly publicOrigin: string | null
  readonly withdrawalSecret?: string | undefined
}>("@folio/domain/NotificationLinks", { defaultValue: () => ({ publicOrigin: null }) })

/**
 * Receipts a form may send per hour: to one address (from this form, and from every form of every
 * workspace) and in all, so no form can be used to flood someone's inbox. A Reference so tests and
 * deployments can change them.
 */
export const ReceiptRateLimitPolicy = Context.Reference<{
  readonly perAddressPerFormPerHour: number
  readonly perAddressPerHour: number
  readonly perFormPerHour: number
}>("@folio/domain/ReceiptRateLimitPolicy", {
  defaultValue: () => ({ perAddressPerFormPerHour: 3, perAddressPerHour: 10, perFormPerHour: 100 })
})

const HOUR_MS = 3_600_000

/** The job of one planned e-mail of a completion: its key names the response and the slot. */
export const notificationJob = (
  response: { readonly id: string; readonly workspaceId: string; readonly formId: string },
  planned: PlannedNotification,
  jobId: string,
  at: Date
): NewJob => ({
  id: jobId,
  tenantId: response.workspaceId,
  type: "notification_email",
  resourceId: response.id,
  dedupeKey: `notification_email:${response.id}:${planned.slot}`,
  payload:
    planned.kind === "response"
      ? {
          formId: response.formId,
          responseId: response.id,
          kind: "response",
          slot: planned.slot,
          to: planned.to
        }
      : {
          formId: response.formId,
          responseId: response.id,
          kind: "receipt",
          slot: planned.slot,
          blockId: planned.blockId
        },
  maxAttempts: NOTIFICATION_EMAIL_MAX_ATTEMPTS,
  runAt: at,
  retryOf: null,
  createdAt: at
})

/**
 * Without a mail transport a completion queues nothing: each e-mail it asked for is logged once
 * (form, response and kind; never an address).
 */
export const logUnsentNotifications = (
  response: { readonly id: string; readonly formId: string },
  planned: ReadonlyArray<PlannedNotification>
) =>
  Effect.forEach(
    planned,
    (p) =>
      Effect.logWarning("notification e-mail not sent: this server has no mail transport", {
        formId: response.formId,
        responseId: response.id,
        kind: p.kind
      }),
    { discard: true }
  )

interface Target {
  readonly formId: string
  readonly responseId: string
  readonly slot: string
  readonly kind: "response" | "receipt"
  readonly to: string
  readonly blockId: string
}

const targetOf = (job: JobRecord): Target | undefined => {
  const p = job.payload
  const str = (v: unknown) => (typeof v === "string" ? v : undefined)
  const formId = str(p.formId)
  const responseId = str(p.responseId)
  const slot = str(p.slot)
  if (formId === undefined || responseId === undefined || slot === undefined) return undefined
  if (p.kind === "response" && str(p.to) !== undefined)
    return { formId, responseId, slot, kind: "response", to: str(p.to) ?? "", blockId: "" }
  if (p.kind === "receipt" && str(p.blockId) !== undefined)
    return { formId, responseId, slot, kind: "receipt", to: "", blockId: str(p.blockId) ?? "" }
  return undefined
}

/** Blocks whose answers the respondent did not give (set from the URL or computed): not in a receipt. */
const SERVER_SET = new Set(["hidden_field", "calculated_field"])

/**
 * Counts one receipt to `address` from `formId` in the shared hourly windows; false when any is
 * over its budget. Counted on the job's first attempt only, so a retry is not counted twice.
 */
const receiptAllowed = (formId: string, address: string) =>
  Effect.gen(function* () {
    const policy = yield* ReceiptRateLimitPolicy
    const store = yield* RateLimitStore
    const nowMs = yield* Clock.currentTimeMillis
    // The address is kept only as a hash in the counters' bucket names.
    const who = sha256Hex(`receipt-address:${address.toLowerCase()}`)
    const [toForm, toAddress, fromForm] = yield* store.hitMany(
      [`receipt-to-form:${formId}:${who}`, `receipt-to:${who}`, `receipt-form:${formId}`],
      HOUR_MS,
      nowMs
    )
    return (
      (toForm?.count ?? 0) <= policy.perAddressPerFormPerHour &&
      (toAddress?.count ?? 0) <= policy.perAddressPerHour &&
      (fromForm?.count ?? 0) <= policy.perFormPerHour
    )
  })

/** A text in the locale, else English, else any: interview labels are maps by locale. */
const inLocale = (map: Readonly<Record<string, string>>, locale: string) =>
  map[locale] ?? map.en ?? Object.values(map)[0]

/**
 * An interview's fields as the e-mail shows them: the field's label, the value the interview
 * extracted (options by label), a declined field by its state, an unanswered one empty.
 */
const interviewAnswerLines = (
  definition: InterviewDefinition,
  stored: unknown,
  locale: string
): ReadonlyArray<AnswerLine> => {
  const extracted =
    typeof stored === "object" && stored !== null && "extractedFields" in stored
      ? ((stored as { extractedFields?: unknown }).extractedFields as Record<string, unknown> | undefined)
      : undefined
  return definition.fields.map((field) => {
    const value = extracted?.[field.id]
    const option = (id: unknown) => {
      const found = field.options.find((o) => o.id === id)
      return found === undefined ? String(id) : (inLocale(found.labelByLocale, locale) ?? String(id))
    }
    const text =
      value === undefined || value === null
        ? ""
        : typeof value === "object" && !Array.isArray(value) && "nonAnswer" in value
          ? `(${String((value as { nonAnswer: unknown }).nonAnswer)})`
          : isCustomAnswer(value)
            ? [...(value.options ?? []).map(option), customAnswerText(value.custom, locale)].join(", ")
            : Array.isArray(value)
              ? value.map(option).join(", ")
              : field.options.length > 0
                ? option(value)
                : typeof value === "object"
                  ? JSON.stringify(value)
                  : String(value)
    return { label: inLocale(field.labelByLocale, locale) ?? field.id, value: text }
  })
}

const invalidPayload = () =>
  new JobFailed({ code: "invalid_payload", message: "the job names no notification", retryable: false })

/**
 * Sends one notification e-mail. Skipped when there is nothing (left) to send: the response or form
 * is gone, this server has no mailer, the answer is no deliverable address, or the receipt is over
 * its rate limit (logged without the address). A mail server's refusal is retried with the queue's
 * backoff when it may pass (a 4xx, a connection failure); a 5xx ends the job `failed`.
 */
export const runNotificationEmailJob = (
  job: JobRecord
): Effect.Effect<JobOutcome, JobFailed, FormRepository | ResponseRepository | RateLimitStore> =>
  Effect.gen(function* () {
    const target = targetOf(job)
    if (target === undefined) return yield* invalidPayload()
    const log = { formId: target.formId, responseId: target.responseId, kind: target.kind }
    const mailer = yield* Mailer
    if (mailer === null) {
      yield* Effect.logWarning("notification e-mail not sent: this server has no mail transport", log)
      return skipped({ reason: "mail_not_configured" })
    }
    const responses = yield* ResponseRepository
    const forms = yield* FormRepository
    const found = yield* responses.get(job.tenantId, target.formId, target.responseId)
    if (Option.isNone(found) || found.value.status !== "completed")
      return skipped({ reason: "response_not_completed" })
    const response = found.value
    const form = yield* forms.get(job.tenantId, target.formId)
    const version = yield* forms.getVersion(job.tenantId, target.formId, response.formVersionId)
    if (Option.isNone(form) || Option.isNone(version)) return skipped({ reason: "form_unreadable" })
    const settings = readStoredSettings(form.value.settings)
    const locale = settings?.locale ?? "en"
    let answers: ReadonlyArray<AnswerLine>
    if (form.value.kind === "interview") {
      const interview = readStoredInterviewDefinition(version.value.definition)
      if (interview === null) return skipped({ reason: "form_unreadable" })
      answers = interviewAnswerLines(interview, response.meta.interview, locale)
    } else {
      const definition = readVersionDefinition(version.value.definition)
      if (definition === null) return skipped({ reason: "form_unreadable" })
      const files = yield* responses.listFiles(job.tenantId, target.formId, [response.id])
      const fileNames = new Map(files.map((f) => [f.key, f.filename]))
      // The respondent's answers, and for the owners the values the server set (hidden, calculated).
      answers = definition.blocks
        .filter((b) => isInputBlockType(b.type) || (target.kind === "response" && SERVER_SET.has(b.type)))
        .map((block) => ({
          label: block.label === "" ? block.id : block.label,
          value: answerText(block, response.answers[block.id], "label", (key) => fileNames.get(key) ?? "file")
        }))
    }
    const digest = {
      locale,
      formTitle: form.value.title,
      completedAt: response.completedAt ?? response.updatedAt,
      answers
    }
    // The same id on every attempt: a receiver drops the copy a resend after a crash would make.
    const id = `${response.id}.${target.slot}`
    let message: ReturnType<typeof composeResponseEmail>
    if (target.kind === "response") {
      const origin = (yield* NotificationLinks).publicOrigin
      message = composeResponseEmail(digest, {
        to: target.to,
        id,
        responseUrl:
          origin === null ? null : `${origin}/forms/api/v1/forms/${target.formId}/responses/${response.id}`
      })
    } else {
      const address = response.answers[target.blockId]
      if (typeof address !== "string" || !isDeliverableAddress(address)) {
        yield* Effect.logWarning("receipt not sent: the answer is not a deliverable address", log)
        return skipped({ reason: "undeliverable_address" })
      }
      if (job.attempts <= 1 && !(yield* receiptAllowed(target.formId, address))) {
        yield* Effect.logWarning("receipt not sent: over its rate limit", log)
        return skipped({ reason: "rate_limited" })
      }
      const links = yield* NotificationLinks
      const withdrawal =
        links.publicOrigin === null || links.withdrawalSecret === undefined || settings === null
          ? undefined
          : withdrawalLinkFor(links.withdrawalSecret, form.value, settings, response.id)
      message = composeReceipt(digest, {
        to: address,
        id,
        ...(withdrawal === undefined ? {} : { withdrawalUrl: `${links.publicOrigin}${withdrawal}` })
      })
    }
    yield* mailer
      .send(message)
      .pipe(
        Effect.mapError(
          (e) => new JobFailed({ code: "mail_not_sent", message: e.reason, retryable: e.retryable })
        )
      )
    return succeeded({ kind: target.kind })
  }).pipe(Effect.catchTag("StorageError", storageUnavailable("notification e-mail")))
