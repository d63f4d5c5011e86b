// Port: extraction of insights from completed free-text answers. The built-in extractor is
// deterministic (patterns and recurring terms); an LLM-backed one can replace it by providing this
// tag, without touching the route or the aggregation.
import { Context, Data, type Effect } from "effect"
import type { StorageError } from "../../kernel/errors.js"

export interface InsightSource {
  readonly responseId: string
  readonly blockId: string
  readonly label: string
  readonly text: string
}

/** One thing found in one answer: a candidate structured field and the value it would hold. */
export interface ExtractedInsight {
  readonly responseId: string
  readonly blockId: string
  /** Stable name of the candidate field, e.g. `email`, `url`, `topic:pricing`. */
  readonly field: string
  /** The block type the candidate would become if promoted. */
  readonly suggestedType: string
  readonly confidence: number
}

export interface InsightExtractorService {
  readonly extract: (
    sources: ReadonlyArray<InsightSource>
  ) => Effect.Effect<ReadonlyArray<ExtractedInsight>, StorageError>
}

export class InsightExtractor extends Context.Service<InsightExtractor, InsightExtractorService>()(
  "@folio/domain/InsightExtractor"
) {}

/** When a candidate is promoted automatically: its share of scanned responses and a minimum count. */
export interface InsightPolicyService {
  readonly autoThreshold: number
  readonly minResponses: number
  /** Most recent completed responses scanned per request. */
  readonly scanLimit: number
}

export class InsightPolicy extends Context.Service<InsightPolicy, InsightPolicyService>()(
  "@folio/domain/InsightPolicy"
) {}

/**
 * What a model proposes for one numbered source (1-based, as the prompt numbers them): a candidate
 * field and the words of the answer that show it. The domain keeps only what the answer really says.
 */
export interface ProposedInsight {
  readonly source: number
  readonly field: string
  readonly suggestedType: string
  readonly confidence: number
  readonly evidence: string
}

export class InsightModelFailed extends Data.TaggedError("InsightModelFailed")<{ readonly reason: string }> {}

export interface InsightModelService {
  readonly extract: (
    sources: ReadonlyArray<InsightSource>
  ) => Effect.Effect<ReadonlyArray<ProposedInsight>, InsightModelFailed>
}

/** The configured model that extracts insights as a job (`form_insights`); none: the built-in extractor only. */
export const InsightModel = Context.Reference<InsightModelService | null>("@folio/domain/InsightModel", {
  defaultValue: () => null
})
