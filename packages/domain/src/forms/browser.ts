// The respondent rules the public form page runs in the browser: branching, answer value checks and
// derived fields, the same functions the server validates with. Nothing here may import Effect or
// anything else heavy: the page's script bundles this entry (`@folio/domain/browser`).
export type { Block, Choice } from "./definition/blocks.js"
export { BLOCK_TYPES, type BlockType, isInputBlockType } from "./definition/block-types.js"
export { COUNTRY_CODES, isCountryCode } from "./definition/countries.js"
export type { FormDefinition } from "./definition/definition.js"
export { evaluateExpression, ExpressionError, parseExpression } from "./definition/expression.js"
export type { FormSettings } from "./settings/settings.js"
export { checkAnswer, deriveAnswers, isEmptyAnswer, numericValue } from "./responses/answer-rules.js"
export {
  type Answers,
  type AnswerValue,
  conditionHolds,
  ruleFires,
  visibleBlocks
} from "./responses/logic.js"
export type { PresentedOrder } from "./responses/presentation.js"
export type { QuizResult } from "./responses/score-views.js"
