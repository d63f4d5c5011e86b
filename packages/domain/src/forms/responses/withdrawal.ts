// A respondent's withdrawal from a study: a private link (an HMAC of the form and response ids under
// the server's secret, so nothing is stored) opens a confirmation, whose post deletes the response.
import { Effect, Option } from "effect"
import { constantTimeEqual, hmacSha256Hex } from "../../kernel/digest.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { WithdrawalLinkInvalid } from "../errors.js"
import { FormRepository, type FormRecord } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import { defaultFormSettings, type FormSettings } from "../settings/settings.js"

const MAC = /^[0-9a-f]{64}$/

/** The secret's use here is its own: a MAC made for another purpose never opens a withdrawal. */
const withdrawalKey = (secret: string) => `forms-withdrawal:${secret}`

/** The link's signature: HMAC-SHA256 over the form and response ids. */
export const withdrawalMac = (secret: string, formId: string, responseId: string): string =>
  hmacSha256Hex(withdrawalKey(secret), ["folio-withdraw-v1", formId, responseId].join("\n"))

/**
 * The path of a withdrawal link, to append to the public origin: `/f/{slug}/withdraw/{id}/{mac}`
 * (two segments: the router caps one path parameter at 100 characters).
 */
export const withdrawalPath = (slug: string, responseId: string, mac: string): string =>
  `/f/${encodeURIComponent(slug)}/withdraw/${responseId}/${mac}`

/**
 * The withdrawal link path of a response, or undefined when its form offers no withdrawal: what the
 * completion screen and the receipt show.
 */
export const withdrawalLinkFor = (
  secret: string,
  form: Pick<FormRecord, "id" | "slug">,
  settings: FormSettings,
  responseId: string
): string | undefined =>
  settings.researchCompliance?.withdrawalEnabled === true
    ? withdrawalPath(form.slug, responseId, withdrawalMac(secret, form.id, responseId))
    : undefined

/** A link's response id and signature checked for shape (not yet for the signature itself). */
export const parseWithdrawalToken = (
  id: string,
  signature: string
): { responseId: string; mac: string } | undefined => {
  const responseId = id.toLowerCase()
  const mac = signature.toLowerCase()
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(responseId)) return undefined
  return MAC.test(mac) ? { responseId, mac } : undefined
}

/** What the confirmation page shows: the form's title; never anything of the response. */
export interface WithdrawalTarget {
  readonly form: FormRecord
  readonly settings: FormSettings
  readonly responseId: string
}

const invalid = () => new WithdrawalLinkInvalid()

/**
 * The form and response a link opens: the form at `slug` (published or not: a study that stopped
 * collecting still lets its respondents withdraw) offering withdrawal, the signature right, and the
 * response still there. Every other case is the same WithdrawalLinkInvalid.
 */
export const openWithdrawal = (secret: string, slug: string, responseId: string, mac: string) =>
  Effect.gen(function* () {
    const parsed = parseWithdrawalToken(responseId, mac)
    if (parsed === undefined) return yield* invalid()
    const form = yield* Effect.flatMap(Effect.service(FormRepository), (r) => r.getBySlug(slug))
    if (Option.isNone(form)) return yield* invalid()
    const documents = yield* StoredFormDocumentReader
    const settings = documents.settings(form.value.settings) ?? defaultFormSettings()
    if (settings.researchCompliance?.withdrawalEnabled !== true) return yield* invalid()
    if (!constantTimeEqual(withdrawalMac(secret, form.value.id, parsed.responseId), parsed.mac))
      return yield* invalid()
    const found = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.get(form.value.workspaceId, form.value.id, parsed.responseId)
    )
    if (Option.isNone(found)) return yield* invalid()
    return { form: form.value, settings, responseId: parsed.responseId } satisfies WithdrawalTarget
  })

/**
 * Deletes a response and its files for good: the row and its file rows in one transaction, then the
 * files' blobs (an orphan blob left by a crash in between names no row and is never served). A second
 * post of the same link finds nothing: WithdrawalLinkInvalid.
 */
export const deleteResponseWithFiles = (workspaceId: string, formId: string, responseId: string) =>
  Effect.gen(function* () {
    const deleted = yield* Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.delete(workspaceId, formId, responseId)
    )
    if (Option.isNone(deleted)) return false
    const blobs = yield* BlobStore
    for (const file of deleted.value)
      yield* blobs
        .delete(file.key)
        .pipe(Effect.catch(() => Effect.logWarning("a deleted response's file blob was not removed")))
    return true
  })

/** The confirmation's post: the response named by a valid link is deleted with its files. */
export const withdrawResponse = (secret: string, slug: string, responseId: string, mac: string) =>
  Effect.gen(function* () {
    const target = yield* openWithdrawal(secret, slug, responseId, mac)
    const deleted = yield* deleteResponseWithFiles(target.form.workspaceId, target.form.id, target.responseId)
    if (!deleted) return yield* invalid()
    return target
  })
