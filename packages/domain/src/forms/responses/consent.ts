// The respondent's acceptance of a form's research compliance: every consent item must be accepted
// before a response starts, and what was accepted (texts, time, settings version) is kept in its meta.
import { Result, Schema } from "effect"
import type { Issue } from "../../kernel/errors.js"
import { ConsentNotGiven } from "../errors.js"
import { type FormSettings, settingsSignature } from "../settings/settings.js"

/** What a response stores under `meta.consent` and its detail read shows as `consent`. */
export const ResponseConsent = Schema.Struct({
  /** The consent items' texts as the respondent accepted them, in the form's order. */
  items: Schema.Array(Schema.String),
  acceptedAt: Schema.String,
  /** The settingsSignature of the settings the respondent saw: which version of the wording. */
  settingsSignature: Schema.String
}).annotate({ identifier: "ResponseConsent", title: "Research consent given at the response's start" })
export type ResponseConsent = typeof ResponseConsent.Type

/** The most accepted items a start may name (the settings allow 20). */
export const MAX_CONSENT_ITEMS = 20

/**
 * The acceptance a start carries, checked against the form's settings: undefined when the form asks
 * for none; the record to store when every item's text is among the accepted ones; else the
 * refusal, one value-free issue per missing item. Texts rather than positions, so an acceptance of
 * wording the author changed since the page was shown is refused rather than stored for new wording.
 */
export const acceptConsent = (
  settings: FormSettings,
  accepted: ReadonlyArray<string> | undefined,
  at: Date
): Result.Result<ResponseConsent | undefined, ConsentNotGiven> => {
  const compliance = settings.researchCompliance
  if (compliance === undefined) return Result.succeed(undefined)
  const given = new Set(accepted ?? [])
  const issues: Array<Issue> = compliance.consentItems.flatMap((item, i) =>
    given.has(item)
      ? []
      : [{ path: ["consent", i], rule: "consentRequired", expected: "this consent item accepted" }]
  )
  if (issues.length > 0) return Result.fail(new ConsentNotGiven({ issues }))
  return Result.succeed({
    items: [...compliance.consentItems],
    acceptedAt: at.toISOString(),
    settingsSignature: settingsSignature(settings)
  })
}

/** A response's stored consent, or null (a form without compliance, or a response from before it). */
export const consentOf = (meta: Readonly<Record<string, unknown>>): ResponseConsent | null => {
  const stored = meta.consent
  return stored !== undefined && Schema.is(ResponseConsent)(stored) ? stored : null
}
