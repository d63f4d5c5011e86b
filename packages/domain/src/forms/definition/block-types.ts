// The 23 classic block types of forms-api.md, and which of them take a respondent's input.
export const BLOCK_TYPES = [
  "short_text",
  "long_text",
  "multiple_choice",
  "checkboxes",
  "dropdown",
  "ranking",
  "rating",
  "date",
  "datetime",
  "time",
  "date_range",
  "email",
  "number",
  "file_upload",
  "signature",
  "privacy_consent",
  "address",
  "statement",
  "page_break",
  "divider",
  "image",
  "calculated_field",
  "hidden_field"
] as const

export type BlockType = (typeof BLOCK_TYPES)[number]

/**
 * Blocks a respondent does not fill in: the spec forces `required: false` on exactly these, and a
 * classic form needs at least one block outside this set to be publishable.
 */
export const NON_INPUT_BLOCK_TYPES = [
  "statement",
  "page_break",
  "divider",
  "image",
  "calculated_field",
  "hidden_field"
] as const satisfies ReadonlyArray<BlockType>

export const isInputBlockType = (type: BlockType): boolean =>
  !(NON_INPUT_BLOCK_TYPES as ReadonlyArray<BlockType>).includes(type)
