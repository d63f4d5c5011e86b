// The interview page's `experience` settings the domain owns: the named themes a definition may pick,
// the background image (https only, its exact origin is what the page's CSP allows), and the live
// profile, what the respondent is shown of what has been understood so far. The page (adapters-http)
// renders them; writes are refused here (value-free issues) and stored legacy values read as defaults.
import type { Issue } from "../../kernel/errors.js"
import type { InterviewDefinition } from "./definition.js"
import type { InterviewSession } from "./interviewer.js"
import { fieldLabel, valueText } from "./questions.js"

/**
 * The themes an interview may pick: the classic page's four (`cloud`, `ink`, `warm`, `forest`) and two
 * of its own, `dark` and `contrast` (light text on black, for low vision). Each is a whole palette
 * checked for contrast as a set, so it replaces the form settings' colours on the chat page.
 */
export const INTERVIEW_THEMES = ["cloud", "ink", "warm", "forest", "dark", "contrast"] as const
export type InterviewTheme = (typeof INTERVIEW_THEMES)[number]

/** The theme of a definition without one, or with a stored name from before the list (legacy). */
export const DEFAULT_INTERVIEW_THEME: InterviewTheme = "cloud"

const isTheme = (name: string): name is InterviewTheme =>
  (INTERVIEW_THEMES as ReadonlyArray<string>).includes(name)

/** The theme the page applies: the definition's when it is one of ours, else undefined (the form's own). */
export const interviewThemeOf = (def: InterviewDefinition): InterviewTheme | undefined => {
  const name = def.experience?.theme?.trim()
  if (name === undefined || name === "") return undefined
  return isTheme(name) ? name : DEFAULT_INTERVIEW_THEME
}

/** How dark the scrim over a background image is when the definition does not say. */
export const DEFAULT_BACKGROUND_SCRIM = 0.45

export interface InterviewBackground {
  /** The normalised https URL (WHATWG serialisation). */
  readonly url: string
  /** Its exact origin (scheme, host, port): the one image source the page's CSP adds. */
  readonly origin: string
  readonly scrim: number
}

const httpsUrl = (raw: string): { readonly href: string; readonly origin: string } | undefined => {
  if (!URL.canParse(raw)) return undefined
  const url = new URL(raw)
  // No credentials in an address every respondent's browser will see.
  return url.protocol === "https:" && url.username === "" && url.password === ""
    ? { href: url.href, origin: url.origin }
    : undefined
}

/** The background the page shows: an https image and its scrim; a stored value that is not one shows none. */
export const interviewBackgroundOf = (def: InterviewDefinition): InterviewBackground | undefined => {
  const raw = def.experience?.backgroundImageUrl?.trim()
  const url = raw === undefined || raw === "" ? undefined : httpsUrl(raw)
  if (url === undefined) return undefined
  return {
    url: url.href,
    origin: url.origin,
    scrim: def.experience?.backgroundScrim ?? DEFAULT_BACKGROUND_SCRIM
  }
}

/** The experience settings a write may not store: an unknown theme, a background that is not https. */
export const experienceIssues = (def: InterviewDefinition): ReadonlyArray<Issue> => {
  const e = def.experience
  if (e === undefined) return []
  const out: Array<Issue> = []
  if (e.theme !== undefined && !isTheme(e.theme.trim()))
    out.push({ path: ["experience", "theme"], rule: "enum", allowed: [...INTERVIEW_THEMES] })
  if (e.backgroundImageUrl !== undefined && httpsUrl(e.backgroundImageUrl.trim()) === undefined)
    out.push({
      path: ["experience", "backgroundImageUrl"],
      rule: "httpsUrl",
      expected: "an https URL without credentials"
    })
  return out
}

/** One line of the live profile: a field the interview has settled, as the respondent said it. */
export interface InterviewProfileItem {
  readonly fieldId: string
  readonly label: string
  readonly value: string
}

/** The live profile is on unless the definition turns it off (`experience.liveProfile` defaults true). */
export const liveProfileEnabled = (def: InterviewDefinition): boolean => def.experience?.liveProfile !== false

/**
 * What has been understood so far: the answered fields in the definition's order, labelled and
 * worded in the respondent's locale by the same formatters as the analysis' key information. Goals
 * are left out: their coverage is the researcher's measure, not something the respondent said.
 */
export const interviewProfileOf = (
  def: InterviewDefinition,
  locale: string,
  session: InterviewSession
): ReadonlyArray<InterviewProfileItem> =>
  def.fields.flatMap((field) => {
    const state = session.fields.find((s) => s.fieldId === field.id)
    if (state === undefined || state.status !== "answered" || state.value === undefined) return []
    return [
      {
        fieldId: field.id,
        label: fieldLabel(def, field, locale),
        value: valueText(def, field, state.value, locale)
      }
    ]
  })
