// `responseLocale` of a response: the locale the respondent used, stored in the response's meta when
// it starts, when there was a choice of locales (the spec: null when multilingual presentation was not used).
import { Schema } from "effect"

export const ResponseLocale = Schema.Literals(["en", "ko", "ja"])
export type ResponseLocale = typeof ResponseLocale.Type

const isResponseLocale = Schema.is(ResponseLocale)

/**
 * What a start stores under `meta.responseLocale`: the locale used, when the respondent was offered
 * more than one. A single-locale form or interview (every classic form today: translation sets do
 * not exist yet) presents no choice, so nothing is stored and the reads answer null.
 */
export const responseLocaleMeta = (
  offered: ReadonlyArray<string>,
  used: string
): { readonly responseLocale?: ResponseLocale } =>
  offered.length > 1 && isResponseLocale(used) ? { responseLocale: used } : {}

/** The stored `responseLocale` of a response's meta, or null. */
export const responseLocaleOf = (meta: Readonly<Record<string, unknown>>): ResponseLocale | null =>
  isResponseLocale(meta.responseLocale) ? meta.responseLocale : null
