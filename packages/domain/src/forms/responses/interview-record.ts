// How an interview lives in storage: the interview definition a form version holds, and the
// interview's state in `meta.interview` of its response row (the transcript, the rules' field and
// goal states, the analysis and its quality block), written and read back by the use cases and the
// analysis job.
import { Effect, Option, Schema } from "effect"
import { type InterviewAnalysis, extractedFieldsOf } from "../interview/analysis.js"
import type { InterviewDefinition } from "../interview/definition.js"
import { emergentFollowupCount } from "../interview/emergent.js"
import {
  InterviewContextSummary,
  InterviewEmergentItem,
  InterviewFieldState,
  InterviewGoalState,
  InterviewMemberCheckState,
  InterviewProbeKind,
  type InterviewMessage,
  type InterviewSession,
  InterviewTurnKind,
  InterviewValidationState
} from "../interview/interviewer.js"
import { exchangeCount, followupCount } from "../interview/rule-basics.js"
import { memberCheckQuality } from "../interview/member-check.js"
import { validationSummary } from "../interview/validation.js"
import type { FormRecord, FormVersionRecord } from "../ports/forms.js"
import type { ResponseRecord } from "../ports/responses.js"
import { StoredFormDocumentReader } from "../ports/stored-documents.js"
import type { FormSettings } from "../settings/settings.js"

export interface PublishedInterview {
  readonly form: FormRecord
  readonly version: FormVersionRecord
  readonly definition: InterviewDefinition
  readonly settings: FormSettings
}

/** The interview definition a version holds; null for a version of another kind. */
export const decodeInterview = (version: FormVersionRecord) =>
  Effect.gen(function* () {
    const documents = yield* StoredFormDocumentReader
    const definition = documents.definition("interview", version.definition, version.id)
    return definition === null || !("fields" in definition && "goals" in definition)
      ? null
      : (definition as InterviewDefinition)
  })

// `meta.interview` holds what the reads show (StoredInterview in reads.ts: transcript, extracted
// fields, analysis, quality) plus `runtime`, the rules' field and goal states. Transcript turns keep
// what each assistant turn targeted (extra keys the reads ignore), so the session is rebuilt from
// the row alone and the transcript text is stored once.

const StoredTurn = Schema.Struct({
  turnId: Schema.String,
  role: Schema.Literals(["assistant", "user"]),
  content: Schema.String,
  blockId: Schema.String,
  kind: Schema.optionalKey(InterviewTurnKind),
  targetType: Schema.optionalKey(Schema.Literals(["field", "goal", "emergent"])),
  probeKind: Schema.optionalKey(InterviewProbeKind)
})
type StoredTurn = typeof StoredTurn.Type

const StoredRuntime = Schema.Struct({
  transcript: Schema.Array(StoredTurn),
  runtime: Schema.Struct({
    locale: Schema.String,
    fields: Schema.Array(InterviewFieldState),
    goals: Schema.Array(InterviewGoalState),
    // The rolling context summary (policy.context); rows written before it have none.
    summary: Schema.optionalKey(InterviewContextSummary),
    emergent: Schema.optionalKey(Schema.Array(InterviewEmergentItem)),
    memberCheck: Schema.optionalKey(InterviewMemberCheckState),
    /** The validation items assigned at the start and their answers (absent: none assigned). */
    validation: Schema.optionalKey(InterviewValidationState)
  })
})
const decodeRuntime = Schema.decodeUnknownOption(StoredRuntime)

const turnOf = (m: InterviewMessage): StoredTurn => ({
  turnId: m.id,
  role: m.role,
  content: m.text,
  blockId: m.target?.id ?? "",
  ...(m.kind === undefined ? {} : { kind: m.kind }),
  ...(m.target === undefined ? {} : { targetType: m.target.type }),
  ...(m.probeKind === undefined ? {} : { probeKind: m.probeKind })
})

/**
 * The stored transcript: a respondent's turn names, as its `blockId`, the field or goal the question
 * before it asked about (so a reader can tell what it answers); an assistant turn its own target.
 */
const transcriptOf = (messages: ReadonlyArray<InterviewMessage>): ReadonlyArray<StoredTurn> =>
  messages.map((m, i) => {
    const turn = turnOf(m)
    if (m.role !== "user") return turn
    const asked = messages.slice(0, i).findLast((p) => p.role === "assistant")
    return { ...turn, blockId: asked?.target?.id ?? "" }
  })

const messageOf = (t: StoredTurn): InterviewMessage => ({
  id: t.turnId,
  role: t.role,
  text: t.content,
  ...(t.kind === undefined ? {} : { kind: t.kind }),
  ...(t.targetType === undefined ? {} : { target: { type: t.targetType, id: t.blockId } }),
  ...(t.probeKind === undefined ? {} : { probeKind: t.probeKind })
})

export interface LiveInterview {
  readonly locale: string
  readonly session: InterviewSession
}

/** The session a response holds; a row this runtime did not write reads as not found. */
export const liveInterviewOf = (response: ResponseRecord): Option.Option<LiveInterview> =>
  Option.map(decodeRuntime(response.meta.interview), (stored) => ({
    locale: stored.runtime.locale,
    session: {
      messages: stored.transcript.map(messageOf),
      fields: stored.runtime.fields,
      goals: stored.runtime.goals,
      ...(stored.runtime.summary === undefined ? {} : { summary: stored.runtime.summary }),
      ...(stored.runtime.emergent === undefined ? {} : { emergent: stored.runtime.emergent }),
      ...(stored.runtime.memberCheck === undefined ? {} : { memberCheck: stored.runtime.memberCheck }),
      ...(stored.runtime.validation === undefined ? {} : { validation: stored.runtime.validation })
    }
  }))

type AnalysisStatus = "pending" | "completed" | "partial" | "failed"

/** The quality block: counts, and the member check's outcome when a read-back was given (ids only). */
const qualityOf = (session: InterviewSession, completionReason: string | null) => {
  const memberCheck = memberCheckQuality(session)
  const validation = validationSummary(session)
  return {
    completionReason,
    exchangeCount: exchangeCount(session),
    followupCount: followupCount(session),
    // Emergent follow-ups are also in followupCount; shown apart once the feature ran.
    ...(session.emergent === undefined ? {} : { emergentFollowupCount: emergentFollowupCount(session) }),
    ...(memberCheck === undefined ? {} : { memberCheck }),
    ...(validation === undefined ? {} : { validation })
  }
}

/** What `meta.interview` holds for `live`, with its analysis and why it completed (null: not yet). */
export const interviewMeta = (
  live: LiveInterview,
  analysis: InterviewAnalysis,
  analysisStatus: AnalysisStatus,
  completionReason: string | null
) => ({
  transcript: transcriptOf(live.session.messages),
  runtime: {
    locale: live.locale,
    fields: live.session.fields,
    goals: live.session.goals,
    ...(live.session.summary === undefined ? {} : { summary: live.session.summary }),
    ...(live.session.emergent === undefined ? {} : { emergent: live.session.emergent }),
    ...(live.session.memberCheck === undefined ? {} : { memberCheck: live.session.memberCheck }),
    ...(live.session.validation === undefined ? {} : { validation: live.session.validation })
  },
  ...analysis,
  analysisStatus,
  quality: qualityOf(live.session, completionReason)
})

/** A partial interview: the transcript and the fields so far, no analysis yet. */
export const inProgressMeta = (live: LiveInterview) =>
  interviewMeta(
    live,
    { keyInfo: [], insights: [], extractedFields: extractedFieldsOf(live.session) },
    "pending",
    null
  )
