// Port: extraction of insights from completed free-text answers. The built-in extractor is
// deterministic (patterns and recurring terms); an LLM-backed one can replace it by providing this
// tag, without touching the route or the aggregation.
import { type Effect, Context } from "effect"
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
