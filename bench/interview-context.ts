// Prompt size of a model interviewer over a 50-exchange interview, before (the whole transcript in
// every request) and after policy.context (the last recentMessageCount messages and the rolling
// summary): the requests the adapter would send, built by its own pure prompt builder, while the
// built-in interviewer and the domain's rules hold the interview. Characters, and tokens estimated
// as characters / 4. Also the fold chunk's trade-off: summariser calls against prompt size.
import { interviewerMessages, interviewSummariserMessages } from "@folio/adapters-integrations"
import {
  applyInterviewStep,
  builtInSummaryFold,
  correctInterviewerOutput,
  deterministicInterviewerTurn,
  emptyInterviewSession,
  INTERVIEW_SUMMARY_FOLD_MESSAGES,
  InterviewDefinition,
  type InterviewSession,
  recordUserMessage,
  summaryFoldDue,
  validSummary
} from "@folio/domain"
import { Schema } from "effect"
import { printTable, writeResult } from "./_stats.js"

const EXCHANGES = 50
const label = (en: string) => ({ en })

/**
 * 20 text fields in 4 modules, then 3 goals probed to full coverage (an anchor and 9 probes each):
 * exactly 50 exchanges, the interview closing on max_exchanges.
 */
const definition = Schema.decodeUnknownSync(InterviewDefinition)({
  title: "How teams close their month",
  goal: "Understand how finance teams prepare monthly reports and where time is lost.",
  persona: { name: "Mina", tone: "warm and curious" },
  researchBrief: {
    purpose: "Find the slowest steps of the monthly close",
    participantProfile: "Finance leads at companies of 50 to 500 people",
    researchQuestions: ["Which step takes longest?", "What workarounds exist?"]
  },
  locales: { default: "en", supported: ["en"] },
  greetingByLocale: label("Hi! Thanks for taking the time to talk about your monthly close."),
  modules: Array.from({ length: 4 }, (_, m) => ({
    id: `m${m}`,
    labelByLocale: label(`Part ${m + 1}`),
    purpose: `Part ${m + 1} of the close`,
    order: m
  })),
  fields: Array.from({ length: 20 }, (_, i) => ({
    id: `f${i}`,
    moduleId: `m${i % 4}`,
    labelByLocale: label(`step ${i + 1} of your close`),
    questionByLocale: label(`How do you handle step ${i + 1} of your monthly close today?`),
    valueType: i % 3 === 0 ? "long_text" : "short_text",
    requiredness: "hard",
    extraction: { confirmation: "never" }
  })),
  goals: Array.from({ length: 3 }, (_, g) => ({
    id: `g${g}`,
    moduleId: "m3",
    priority: 10,
    labelByLocale: label(`Pain ${g + 1}`),
    internalRubric: "Look for time lost, rework and tools that do not talk to each other.",
    publicPromptHintByLocale: label(`What is hardest about part ${g + 1} of the close?`),
    allowedProbeKinds: ["example", "why", "impact", "barrier"],
    maxProbes: 9,
    requiredCoverage: 1
  })),
  codebook: {
    version: "1",
    codes: [
      { id: "manual_export", codeType: "pain_point", labelByLocale: label("manual export") },
      { id: "spreadsheet_glue", codeType: "workaround", labelByLocale: label("spreadsheet glue") }
    ]
  },
  policy: { maxExchanges: EXCHANGES, maxFollowups: 30, targetFollowups: 9 }
})

/** The whole transcript every turn: what the adapter sent before policy.context acted. */
const wholeTranscript: InterviewDefinition = {
  ...definition,
  policy: {
    ...definition.policy,
    context: { recentMessageCount: Number.MAX_SAFE_INTEGER, summaryAfterMessages: Number.MAX_SAFE_INTEGER }
  }
}

const SENTENCES = [
  "We export the ledger from the accounting system into a spreadsheet every month.",
  "Then someone on the team checks every line by hand against the bank statements.",
  "It usually takes two full days, more when a subsidiary closes late.",
  "The worst part is that the numbers change after we have already sent the draft.",
  "We tried a reconciliation tool last year but it never matched our chart of accounts.",
  "My manager wants the report on the third working day, which is tight.",
  "Most of the rework comes from invoices that are booked in the wrong period."
]
/**
 * A respondent's answer, varied but reproducible: 1 or 2 sentences to a field's question (about 70
 * to 170 characters), 2 to 4 to a goal's question or probe (about 150 to 330).
 */
const answer = (n: number, aboutGoal: boolean) =>
  Array.from(
    { length: (aboutGoal ? 2 : 1) + (n % (aboutGoal ? 3 : 2)) },
    (_, i) => SENTENCES[(n * 3 + i) % SENTENCES.length]
  ).join(" ")

const size = (messages: ReturnType<typeof interviewerMessages>) =>
  messages.reduce((sum, m) => sum + m.content.length, 0)

interface Run {
  /** Characters of the interviewer's request messages at each exchange (index 0: exchange 1). */
  readonly before: Array<number>
  readonly after: Array<number>
  readonly folds: number
  /** Characters of every summariser request (what a model summariser would be sent). */
  readonly summariserChars: number
  readonly exchanges: number
}

/**
 * Holds the interview with the built-in interviewer and the built-in summariser folding every
 * `chunk` messages; `repeat` makes every answer that many times longer.
 */
const hold = (chunk: number, repeat = 1): Run => {
  const locale = "en"
  let session: InterviewSession = {
    ...emptyInterviewSession,
    messages: [{ id: "greeting", role: "assistant", text: "Hi!" }]
  }
  let ids = 0
  const step = (s: InterviewSession) => {
    const input = { definition, locale, session: s }
    return correctInterviewerOutput(definition, locale, s, deterministicInterviewerTurn(input))
  }
  session = applyInterviewStep(session, step(session), `a${ids++}`)
  const run = { before: [] as Array<number>, after: [] as Array<number>, folds: 0, summariserChars: 0 }
  for (let n = 0; n < EXCHANGES; n++) {
    const aboutGoal = session.messages.at(-1)?.target?.type === "goal"
    let s = recordUserMessage(session, `u${ids++}`, Array(repeat).fill(answer(n, aboutGoal)).join(" "))
    const through = summaryFoldDue(definition, s, chunk)
    if (through !== undefined) {
      const previous = validSummary(s)
      const fold = {
        definition,
        locale,
        session: s,
        previous: previous?.text,
        from: previous?.coveredCount ?? 0,
        to: through
      }
      run.folds++
      run.summariserChars += size(interviewSummariserMessages(fold))
      s = {
        ...s,
        summary: {
          text: builtInSummaryFold(fold),
          coveredCount: through,
          throughMessageId: s.messages[through - 1]?.id ?? ""
        }
      }
    }
    run.before.push(size(interviewerMessages({ definition: wholeTranscript, locale, session: s })))
    run.after.push(size(interviewerMessages({ definition, locale, session: s })))
    const next = step(s)
    session = applyInterviewStep(s, next, `a${ids++}`)
    if (next.output.completion.done) break
  }
  return { ...run, exchanges: run.after.length }
}

const at = (values: ReadonlyArray<number>, exchange: number) => values[exchange - 1] ?? Number.NaN
const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0)
const tokens = (chars: number) => Math.round(chars / 4)

export async function run(): Promise<void> {
  const main = hold(INTERVIEW_SUMMARY_FOLD_MESSAGES)
  if (main.exchanges !== EXCHANGES) throw new Error(`the interview ended after ${main.exchanges} exchanges`)
  const { recentMessageCount, summaryAfterMessages } = definition.policy.context
  process.stdout.write(
    `interviewer request (system prompt + transcript messages) per exchange, ${EXCHANGES} exchanges, answers of 70-330 characters; recentMessageCount ${recentMessageCount}, summaryAfterMessages ${summaryAfterMessages}; tokens estimated as characters / 4\n`
  )
  // What every request carries whatever was said: the instructions and the definition's brief.
  const fixed = size(interviewerMessages({ definition, locale: "en", session: emptyInterviewSession }))
  process.stdout.write(`of which the instructions and the definition (every request): ${fixed} chars\n`)
  const rows = [10, 25, 50].map((exchange) => ({
    exchange: String(exchange),
    "before chars": at(main.before, exchange),
    "after chars": at(main.after, exchange),
    "before ~tokens": tokens(at(main.before, exchange)),
    "after ~tokens": tokens(at(main.after, exchange)),
    "after/before": at(main.after, exchange) / at(main.before, exchange),
    "before, beyond fixed": at(main.before, exchange) - fixed,
    "after, beyond fixed": at(main.after, exchange) - fixed
  }))
  const maxBefore = Math.max(...main.before)
  const maxAfter = Math.max(...main.after)
  rows.push({
    exchange: "max",
    "before chars": maxBefore,
    "after chars": maxAfter,
    "before ~tokens": tokens(maxBefore),
    "after ~tokens": tokens(maxAfter),
    "after/before": maxAfter / maxBefore,
    "before, beyond fixed": maxBefore - fixed,
    "after, beyond fixed": maxAfter - fixed
  })
  printTable(rows)

  // Talkative respondents (answers 8 times longer, about 0.6 to 2.7 thousand characters).
  const long = hold(INTERVIEW_SUMMARY_FOLD_MESSAGES, 8)
  process.stdout.write(
    `\nanswers 8x longer: exchange 50 ${at(long.before, 50)} chars before, ${at(long.after, 50)} after (${(at(long.after, 50) / at(long.before, 50)).toFixed(2)}x); max ${Math.max(...long.before)} before, ${Math.max(...long.after)} after (${(Math.max(...long.after) / Math.max(...long.before)).toFixed(2)}x)\n`
  )

  // The fold chunk: a model summariser called more often keeps the interviewer's prompt smaller.
  const chunks = [2, INTERVIEW_SUMMARY_FOLD_MESSAGES, 12].map((chunk) => {
    const r = chunk === INTERVIEW_SUMMARY_FOLD_MESSAGES ? main : hold(chunk)
    return {
      "fold every (messages)": chunk,
      "summariser calls": r.folds,
      "max interviewer chars": Math.max(...r.after),
      "interviewer chars, all turns": sum(r.after),
      "summariser chars, all calls": r.summariserChars,
      "all chars / before": (sum(r.after) + r.summariserChars) / sum(main.before)
    }
  })
  process.stdout.write("\n")
  printTable(chunks)
  process.stdout.write(
    `\nat exchange 50: ${at(main.after, 50)} chars after vs ${at(main.before, 50)} before (${(at(main.after, 50) / at(main.before, 50)).toFixed(2)}x); max over the interview ${(maxAfter / maxBefore).toFixed(2)}x; ${main.folds} summariser calls (folding every ${INTERVIEW_SUMMARY_FOLD_MESSAGES} messages)\n`
  )
  process.stdout.write(
    `written ${writeResult("interview-context", { at: new Date().toISOString(), exchanges: EXCHANGES, before: main.before, after: main.after, rows, chunks, longAnswers: { before: long.before, after: long.after } })}\n`
  )
}
