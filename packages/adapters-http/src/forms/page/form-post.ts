// The public form page without JavaScript posts the whole form as `application/x-www-form-urlencoded`
// or `multipart/form-data`. This reads such a post against the published definition into what the
// respondent use cases take: answers by block id, the URL parameters for hidden fields, whether the
// respondent confirmed answering again, the partial response an earlier attempt left, and the files.
// The field names are the contract with the page's renderer (`FORM_POST_NAMES`); anything a browser
// could not have produced from the page is ignored, and every value is left for the domain to judge.
import { type AnswerValue, type Block, type FormDefinition, MAX_CONSENT_ITEMS } from "@folio/domain"

/** One text field of the post: its name and value, in the order sent. */
export type PostedField = readonly [name: string, value: string]

/** One file part of a multipart post. */
export interface PostedFile {
  /** The part's field name. */
  readonly name: string
  readonly filename: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** A file to upload for a file_upload block. */
export interface FileToUpload {
  readonly blockId: string
  readonly filename: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

/** The partial response an earlier attempt of this respondent left, and the token that owns it. */
export interface Continuation {
  readonly responseId: string
  readonly token: string
}

export interface FormPost {
  /** Answers by block id; unanswered blocks are absent. file_upload blocks are never here: see files, keep. */
  readonly answers: Readonly<Record<string, AnswerValue>>
  /** URL parameters for hidden fields (`_param.<name>`). */
  readonly params: Readonly<Record<string, string>>
  /** The respondent confirmed answering again (`_confirmRepeat=1`, soft_block policy). */
  readonly confirmRepeat: boolean
  /** The completion page asked to reopen the completed response for editing (`_edit=1`). */
  readonly edit: boolean
  readonly continuation?: Continuation | undefined
  /** Files picked in this attempt, in the order sent. */
  readonly files: ReadonlyArray<FileToUpload>
  /** Per file_upload block, keys uploaded in an earlier attempt of this response to keep. */
  readonly keep: Readonly<Record<string, ReadonlyArray<string>>>
  /** The texts of the research consent items ticked (`_consent`, repeated). */
  readonly consent: ReadonlyArray<string>
}

/** The field names the renderer writes and the post is read with. */
export const FORM_POST_NAMES = {
  /** The partial response to continue and its token (both hidden fields). */
  response: "_response",
  token: "_token",
  /** `1` when the respondent confirmed answering again. */
  confirmRepeat: "_confirmRepeat",
  /** `1` from the completion page: reopen the completed response (`_response`, `_token`) to edit it. */
  edit: "_edit",
  /** A ticked research consent item, its text as value (repeated). */
  consent: "_consent",
  /** A URL parameter for hidden fields. */
  param: (name: string) => `_param.${name}`,
  /** The value of the "other" choice of multiple_choice and checkboxes; its text is `other(blockId)`. */
  otherChoice: "__other__",
  other: (blockId: string) => `${blockId}.other`,
  /** Position `i` of address (3), date_range (2) and ranking (one per choice) blocks. */
  part: (blockId: string, i: number) => `${blockId}.${i}`,
  /** A key uploaded in an earlier attempt to keep for a file_upload block (repeated). */
  keep: (blockId: string) => `${blockId}.keep`
} as const

const PARAM_PREFIX = "_param."
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const MAX_TOKEN_LENGTH = 200
/** What `<input type="number">` sends, and what a rating's radio value is. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/

/** A number when the text is one, else the text, so the domain reports the block's rule. */
const numeric = (text: string): AnswerValue => {
  const trimmed = text.trim()
  if (!DECIMAL.test(trimmed)) return text
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : text
}

/** Fixed positions (address, date_range, ranking): unanswered when all are empty. */
const positions = (values: ReadonlyMap<string, string>, count: number): ReadonlyArray<string> | undefined => {
  const parts = Array.from({ length: count }, (_, i) => values.get(String(i)) ?? "")
  return parts.every((p) => p === "") ? undefined : parts
}

/** What was posted for one block: values of its own name in order, and its suffixed fields. */
interface BlockFields {
  readonly values: Array<string>
  /** `<blockId>.<suffix>` -> the first value sent under it. */
  readonly suffixed: Map<string, string>
  readonly keep: Array<string>
}

const answerOf = (block: Block, posted: BlockFields): AnswerValue | undefined => {
  const first = posted.values.find((v) => v !== "")
  switch (block.type) {
    case "short_text":
    case "long_text":
    case "email":
    case "dropdown":
    case "date":
    case "time":
    case "datetime":
    case "privacy_consent":
    case "signature":
      return first
    case "number":
    case "rating":
      return first === undefined ? undefined : numeric(first)
    case "multiple_choice": {
      if (first !== FORM_POST_NAMES.otherChoice) return first
      const other = posted.suffixed.get("other") ?? ""
      return other === "" ? undefined : other
    }
    case "checkboxes": {
      const other = posted.suffixed.get("other") ?? ""
      const picked = posted.values
        .map((v) => (v === FORM_POST_NAMES.otherChoice ? other : v))
        .filter((v) => v !== "")
      return picked.length === 0 ? undefined : picked
    }
    case "address":
      return positions(posted.suffixed, 3)
    case "date_range":
      return positions(posted.suffixed, 2)
    case "ranking":
      return positions(posted.suffixed, block.options.choices.length)
    default:
      // file_upload comes as files and keys to keep; layout blocks take no answer; hidden and
      // calculated fields are set by the server.
      return undefined
  }
}

/**
 * The post read against `definition`: `fields` are its text fields in order (urlencoded pairs, or the
 * multipart fields), `files` its file parts. Empty values are unanswered; names that name no block
 * and do not start with `_` are ignored, as are empty file parts (no file picked).
 */
export const decodeFormPost = (
  definition: FormDefinition,
  fields: ReadonlyArray<PostedField>,
  files: ReadonlyArray<PostedFile> = []
): FormPost => {
  const blocks = new Map(definition.blocks.map((b) => [b.id, b]))
  const posted = new Map<string, BlockFields>()
  const of = (blockId: string) => {
    let entry = posted.get(blockId)
    if (entry === undefined) {
      entry = { values: [], suffixed: new Map(), keep: [] }
      posted.set(blockId, entry)
    }
    return entry
  }
  const control = new Map<string, string>()
  const params = new Map<string, string>()
  const consent: Array<string> = []

  for (const [name, value] of fields) {
    if (name.startsWith(PARAM_PREFIX)) {
      const param = name.slice(PARAM_PREFIX.length)
      if (param !== "" && !params.has(param)) params.set(param, value)
      continue
    }
    if (name === FORM_POST_NAMES.consent) {
      if (consent.length < MAX_CONSENT_ITEMS && !consent.includes(value)) consent.push(value)
      continue
    }
    if (name.startsWith("_")) {
      if (!control.has(name)) control.set(name, value)
      continue
    }
    // Block ids have no dot (blk_[A-Za-z0-9_-]+): whatever follows the first one is the suffix.
    const dot = name.indexOf(".")
    const blockId = dot === -1 ? name : name.slice(0, dot)
    const block = blocks.get(blockId)
    if (block === undefined) continue
    const entry = of(blockId)
    if (dot === -1) {
      entry.values.push(value)
      continue
    }
    const suffix = name.slice(dot + 1)
    if (suffix === "keep") {
      if (block.type === "file_upload" && value !== "" && !entry.keep.includes(value)) entry.keep.push(value)
    } else if (!entry.suffixed.has(suffix)) entry.suffixed.set(suffix, value)
  }

  const answers: Record<string, AnswerValue> = {}
  const keep: Record<string, ReadonlyArray<string>> = {}
  for (const [blockId, entry] of posted) {
    const block = blocks.get(blockId)
    if (block === undefined) continue
    const answer = answerOf(block, entry)
    if (answer !== undefined) answers[blockId] = answer
    if (entry.keep.length > 0) keep[blockId] = entry.keep
  }

  const uploads: Array<FileToUpload> = []
  for (const file of files) {
    if (blocks.get(file.name)?.type !== "file_upload") continue
    // A file input with nothing picked still sends a part with no bytes, named "" (browsers) or not
    // at all (the multipart reader then reports the field's name). A picked empty file is kept, for
    // the domain to refuse.
    if (file.bytes.byteLength === 0 && (file.filename === "" || file.filename === file.name)) continue
    uploads.push({
      blockId: file.name,
      filename: file.filename,
      contentType: file.contentType,
      bytes: file.bytes
    })
  }

  const responseId = control.get(FORM_POST_NAMES.response) ?? ""
  const token = control.get(FORM_POST_NAMES.token) ?? ""
  const continues = UUID.test(responseId) && token !== "" && token.length <= MAX_TOKEN_LENGTH
  return {
    answers,
    params: Object.fromEntries(params),
    confirmRepeat: control.get(FORM_POST_NAMES.confirmRepeat) === "1",
    edit: control.get(FORM_POST_NAMES.edit) === "1",
    ...(continues ? { continuation: { responseId: responseId.toLowerCase(), token } } : {}),
    files: uploads,
    keep,
    consent
  }
}

/**
 * The fields a plain post of `answers` would carry: the inverse of decodeFormPost, to refill the form
 * with a completed response reopened for editing (file_upload answers are refilled as kept files).
 */
export const fieldsOfAnswers = (
  definition: FormDefinition,
  answers: Readonly<Record<string, unknown>>
): ReadonlyArray<PostedField> => {
  const out: Array<PostedField> = []
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "")
  for (const block of definition.blocks) {
    const value = answers[block.id]
    if (value === undefined || value === null) continue
    switch (block.type) {
      case "multiple_choice":
      case "checkboxes": {
        const known = new Set(block.options.choices.map((c) => c.id))
        for (const v of Array.isArray(value) ? value : [value]) {
          if (known.has(text(v))) out.push([block.id, text(v)])
          else {
            out.push([block.id, FORM_POST_NAMES.otherChoice])
            out.push([FORM_POST_NAMES.other(block.id), text(v)])
          }
        }
        break
      }
      case "address":
      case "date_range":
      case "ranking":
        if (Array.isArray(value))
          value.forEach((v, i) => {
            out.push([FORM_POST_NAMES.part(block.id, i), text(v)])
          })
        break
      case "file_upload":
      case "hidden_field":
      case "calculated_field":
        break
      default:
        out.push([block.id, text(value)])
    }
  }
  return out
}
