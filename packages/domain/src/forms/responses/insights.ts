// Insights of a classic form: the extractor (a port) reads completed free-text answers; here the
// findings are aggregated into field-promotion candidates, ranked by frequency x confidence, and
// marked `auto` once their share of scanned responses passes the policy's threshold.
import { Effect, Layer, Stream } from "effect"
import { WrongFormKind } from "../errors.js"
import {
  type ExtractedInsight,
  InsightExtractor,
  InsightPolicy,
  type InsightSource
} from "../ports/insights.js"
import type { FormRecord } from "../ports/forms.js"
import type { ResponseRecord } from "../ports/responses.js"
import type { Block } from "../definition/blocks.js"
import { loadForm } from "../use-cases.js"
import { classicDefinitionOf, completedResponses } from "./sources.js"

const FREE_TEXT = new Set(["short_text", "long_text"])
const PAGE = 500

const PATTERNS: ReadonlyArray<{ field: string; type: string; confidence: number; re: RegExp }> = [
  { field: "email", type: "email", confidence: 0.95, re: /[^\s@<>()]+@[^\s@<>()]+\.[A-Za-z]{2,}/ },
  { field: "url", type: "url", confidence: 0.9, re: /\bhttps?:\/\/[^\s]+|\bwww\.[^\s]+\.[a-z]{2,}/i },
  {
    field: "phone",
    type: "phone",
    confidence: 0.8,
    re: /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?)?\d{3,4}[\s.-]\d{3,4}(?:[\s.-]\d{2,4})?/
  },
  {
    field: "amount",
    type: "number",
    confidence: 0.75,
    re: /[$€£¥₩]\s?\d[\d,.]*|\b\d[\d,.]*\s?(?:usd|eur|gbp|krw|jpy|dollars?|euros?)\b/i
  },
  { field: "percentage", type: "number", confidence: 0.7, re: /\b\d{1,3}(?:\.\d+)?\s?%/ },
  { field: "date", type: "date", confidence: 0.7, re: /\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b/ },
  {
    field: "duration",
    type: "number",
    confidence: 0.6,
    re: /\b\d+(?:\.\d+)?\s?(?:minutes?|hours?|days?|weeks?|months?|years?)\b/i
  }
]

const STOPWORDS = new Set(
  (
    "about above after again against all also although always among another because been before being " +
    "below between both could does doing down during each either enough even every from further have " +
    "having here into just know like made make many more most much must never only other ought over " +
    "really same should some such than that their theirs them then there these they thing things this " +
    "those through under until very want well were what when where which while will with within without " +
    "would your yours yourself maybe think feel pretty quite still sometimes often usually"
  ).split(" ")
)

/** Recurring terms become `topic:<term>` candidates (a choice field); weaker than typed patterns. */
const topicsOf = (text: string): ReadonlyArray<string> => {
  const words = text
    .toLowerCase()
    .normalize("NFKC")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 4 && w.length <= 40 && !STOPWORDS.has(w) && !/^\d+$/.test(w))
  return [...new Set(words)].slice(0, 50)
}

/** The built-in extractor: typed patterns and recurring terms; no network, no randomness. */
export const extractInsights = (sources: ReadonlyArray<InsightSource>): ReadonlyArray<ExtractedInsight> =>
  sources.flatMap((s) => {
    const text = s.text.slice(0, 10_000)
    const typed = PATTERNS.filter((p) => p.re.test(text)).map((p) => ({
      responseId: s.responseId,
      blockId: s.blockId,
      field: p.field,
      suggestedType: p.type,
      confidence: p.confidence
    }))
    const topics = topicsOf(text).map((t) => ({
      responseId: s.responseId,
      blockId: s.blockId,
      field: `topic:${t}`,
      suggestedType: "checkboxes",
      confidence: 0.5
    }))
    return [...typed, ...topics]
  })

export const BuiltInInsightExtractorLive = Layer.succeed(
  InsightExtractor,
  InsightExtractor.of({ extract: (sources) => Effect.succeed(extractInsights(sources)) })
)

export interface PromotionCandidate {
  readonly blockId: string
  readonly blockLabel: string
  readonly field: string
  readonly suggestedType: string
  /** Responses in which it was found. */
  readonly frequency: number
  readonly share: number
  readonly confidence: number
  readonly score: number
  readonly auto: boolean
}

/** Aggregates findings: one candidate per (block, field), at most one count per response. */
export const rankCandidates = (
  findings: ReadonlyArray<ExtractedInsight>,
  scanned: number,
  labels: ReadonlyMap<string, string>,
  policy: { readonly autoThreshold: number; readonly minResponses: number }
): ReadonlyArray<PromotionCandidate> => {
  const groups = new Map<string, { f: ExtractedInsight; responses: Map<string, number> }>()
  for (const f of findings) {
    const key = `${f.blockId}\u0000${f.field}`
    const g = groups.get(key) ?? { f, responses: new Map<string, number>() }
    g.responses.set(f.responseId, Math.max(g.responses.get(f.responseId) ?? 0, f.confidence))
    groups.set(key, g)
  }
  return [...groups.values()]
    .map(({ f, responses }) => {
      const frequency = responses.size
      const confidence = [...responses.values()].reduce((a, b) => a + b, 0) / frequency
      const share = scanned === 0 ? 0 : frequency / scanned
      return {
        blockId: f.blockId,
        blockLabel: labels.get(f.blockId) ?? f.blockId,
        field: f.field,
        suggestedType: f.suggestedType,
        frequency,
        share,
        confidence: Math.round(confidence * 1000) / 1000,
        score: Math.round(frequency * confidence * 1000) / 1000,
        auto: share >= policy.autoThreshold && frequency >= policy.minResponses
      }
    })
    .filter((c) => c.frequency >= 2 || c.suggestedType !== "checkboxes")
    .sort(
      (a, b) =>
        b.score - a.score ||
        (a.blockId < b.blockId ? -1 : a.blockId > b.blockId ? 1 : a.field < b.field ? -1 : 1)
    )
    .slice(0, 100)
}

/** The free-text answers of one page of completed responses, as extractor sources. */
const sourcesOf = (page: ReadonlyArray<ResponseRecord>, textBlocks: ReadonlyArray<Block>) =>
  page.flatMap((r) =>
    textBlocks.flatMap((b): ReadonlyArray<InsightSource> => {
      const v = r.answers[b.id]
      return typeof v === "string" && v.trim() !== ""
        ? [{ responseId: r.id, blockId: b.id, label: b.label, text: v }]
        : []
    })
  )

/**
 * Runs `extract` over the free-text answers of a classic form's most recent completed responses
 * (policy.scanLimit), a page at a time so memory stays bounded by the page and the findings, and
 * ranks what it found. `basis` names what was scanned (the version read, how many responses, the
 * newest one and the latest write among them): a model's result is current while it is unchanged.
 */
export const scanInsights = <E, R>(
  form: FormRecord,
  extract: (sources: ReadonlyArray<InsightSource>) => Effect.Effect<ReadonlyArray<ExtractedInsight>, E, R>
) =>
  Effect.gen(function* () {
    const policy = yield* InsightPolicy
    const definition = yield* classicDefinitionOf(form)
    const textBlocks = definition.blocks.filter((b) => FREE_TEXT.has(b.type))
    const labels = new Map(textBlocks.map((b) => [b.id, b.label]))
    const findings: Array<ExtractedInsight> = []
    let scanned = 0
    let newest = ""
    let latestWrite = 0
    if (textBlocks.length > 0) {
      yield* completedResponses(form, PAGE).pipe(
        Stream.take(policy.scanLimit),
        Stream.grouped(PAGE),
        Stream.runForEach((page) => {
          if (scanned === 0) newest = page[0]?.id ?? ""
          scanned += page.length
          for (const r of page) latestWrite = Math.max(latestWrite, r.updatedAt.getTime())
          return Effect.map(extract(sourcesOf(page, textBlocks)), (found) => void findings.push(...found))
        })
      )
    }
    return {
      scannedResponses: scanned,
      autoThreshold: policy.autoThreshold,
      candidates: rankCandidates(findings, scanned, labels, policy),
      basis: `${form.currentVersionId ?? `draft@${form.draftRevision}`}:${scanned}:${newest}:${latestWrite}`
    }
  })

/** GET /forms/{id}/insights: classic only; the built-in extractor's result (insights-model.ts adds the model's). */
export const builtInInsights = (form: FormRecord) =>
  Effect.flatMap(InsightExtractor, (extractor) => scanInsights(form, extractor.extract))

export const classicFormForInsights = (formId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    if (form.kind !== "classic") return yield* new WrongFormKind({ read: "insights" })
    return form
  })
