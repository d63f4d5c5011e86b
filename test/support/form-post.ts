// The form page's JavaScript-off post in tests: a definition with every input block type, and the
// post a browser sends for it, as urlencoded pairs or as multipart form data.
import { abc, blk } from "./builders.js"

/** Block numbers of the all-types definition, by what each is. */
export const B = {
  name: 1,
  bio: 2,
  email: 3,
  phone: 4,
  site: 5,
  date: 6,
  time: 7,
  datetime: 8,
  pick: 9,
  many: 10,
  drop: 11,
  country: 12,
  consent: 13,
  signature: 14,
  count: 15,
  rating: 16,
  address: 17,
  range: 18,
  rank: 19,
  files: 20,
  rowA: 21,
  rowB: 22,
  gridA: 23,
  gridB: 24,
  source: 25,
  intro: 26
} as const

/** Every input block type once (text in three guises, both matrix kinds), a hidden field, a statement. */
export const allTypesDefinition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(B.name), type: "short_text", label: "Name", required: true },
    { id: blk(B.bio), type: "long_text", label: "Bio" },
    { id: blk(B.email), type: "email", label: "Email" },
    { id: blk(B.phone), type: "short_text", label: "Phone", options: { inputMode: "tel" } },
    { id: blk(B.site), type: "short_text", label: "Site", options: { inputMode: "url" } },
    { id: blk(B.date), type: "date", label: "Day" },
    { id: blk(B.time), type: "time", label: "Time" },
    { id: blk(B.datetime), type: "datetime", label: "When" },
    { id: blk(B.pick), type: "multiple_choice", label: "Pick", options: { choices: abc, allowOther: true } },
    { id: blk(B.many), type: "checkboxes", label: "Many", options: { choices: abc, allowOther: true } },
    { id: blk(B.drop), type: "dropdown", label: "Drop", options: { choices: abc } },
    {
      id: blk(B.country),
      type: "dropdown",
      label: "Country",
      options: { choices: [], dataset: "countries" }
    },
    {
      id: blk(B.consent),
      type: "privacy_consent",
      label: "Consent",
      options: {
        mode: "agree_or_decline",
        items: ["Your name"],
        purpose: "Replying",
        retentionPeriod: "A year",
        refusalNotice: "We will not reply"
      }
    },
    { id: blk(B.signature), type: "signature", label: "Sign" },
    { id: blk(B.count), type: "number", label: "Count", options: { min: 0, max: 100 } },
    { id: blk(B.rating), type: "rating", label: "Mood", options: { scale: 5 } },
    { id: blk(B.address), type: "address", label: "Address" },
    { id: blk(B.range), type: "date_range", label: "Stay" },
    { id: blk(B.rank), type: "ranking", label: "Rank", options: { choices: abc } },
    {
      id: blk(B.files),
      type: "file_upload",
      label: "Photos",
      options: { maxFiles: 2, maxSizeMb: 1, acceptedMimeTypes: ["image/png", "text/plain"] }
    },
    {
      id: blk(B.rowA),
      type: "multiple_choice",
      label: "Row A",
      options: { choices: abc, matrixGroupId: "mtx_radios1", rowLabel: "A" }
    },
    {
      id: blk(B.rowB),
      type: "multiple_choice",
      label: "Row B",
      options: { choices: abc, matrixGroupId: "mtx_radios1", rowLabel: "B" }
    },
    {
      id: blk(B.gridA),
      type: "checkboxes",
      label: "Grid A",
      options: { choices: abc, matrixGroupId: "mtx_checks1", rowLabel: "A" }
    },
    {
      id: blk(B.gridB),
      type: "checkboxes",
      label: "Grid B",
      options: { choices: abc, matrixGroupId: "mtx_checks1", rowLabel: "B" }
    },
    { id: blk(B.source), type: "hidden_field", label: "Source", options: { param: "src" } },
    { id: blk(B.intro), type: "statement", label: "Thanks for answering" }
  ]
}

export const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
])

export const SIGNATURE = "data:image/png;base64,iVBORw0KGgo="

/** A browser's post of the all-types form with every question answered (files aside). */
export const fullPost: ReadonlyArray<readonly [string, string]> = [
  [blk(B.name), "Ann Lee"],
  [blk(B.bio), "Line one\r\nLine two & more"],
  [blk(B.email), "ann@example.com"],
  [blk(B.phone), "+33 1 23 45 67 89"],
  [blk(B.site), "https://example.com/?a=1&b=2"],
  [blk(B.date), "2024-02-29"],
  [blk(B.time), "09:30"],
  [blk(B.datetime), "2024-03-01T18:45"],
  [blk(B.pick), "__other__"],
  [`${blk(B.pick)}.other`, "Something else"],
  [blk(B.many), "a"],
  [blk(B.many), "__other__"],
  [blk(B.many), "c"],
  [`${blk(B.many)}.other`, "Mine"],
  [blk(B.drop), "b"],
  [blk(B.country), "FR"],
  [blk(B.consent), "y"],
  [blk(B.signature), SIGNATURE],
  [blk(B.count), "42.5"],
  [blk(B.rating), "4"],
  [`${blk(B.address)}.0`, "75001"],
  [`${blk(B.address)}.1`, "1 rue de Rivoli"],
  [`${blk(B.address)}.2`, ""],
  [`${blk(B.range)}.0`, "2024-05-01"],
  [`${blk(B.range)}.1`, "2024-05-03"],
  [`${blk(B.rank)}.0`, "c"],
  [`${blk(B.rank)}.1`, "a"],
  [`${blk(B.rank)}.2`, "b"],
  [blk(B.rowA), "b"],
  [blk(B.rowB), "a"],
  [blk(B.gridA), "a"],
  [blk(B.gridA), "b"],
  [blk(B.gridB), "c"],
  ["_param.src", "newsletter"],
  // Not a block: the browser would not send it, and it is ignored.
  ["blk_99999999", "x"],
  ["submit", "Send"]
]

/** The answers `fullPost` stands for, as the API reads them back. */
export const fullAnswers = {
  [blk(B.name)]: "Ann Lee",
  [blk(B.bio)]: "Line one\r\nLine two & more",
  [blk(B.email)]: "ann@example.com",
  [blk(B.phone)]: "+33 1 23 45 67 89",
  [blk(B.site)]: "https://example.com/?a=1&b=2",
  [blk(B.date)]: "2024-02-29",
  [blk(B.time)]: "09:30",
  [blk(B.datetime)]: "2024-03-01T18:45",
  [blk(B.pick)]: "Something else",
  [blk(B.many)]: ["a", "Mine", "c"],
  [blk(B.drop)]: "b",
  [blk(B.country)]: "FR",
  [blk(B.consent)]: "y",
  [blk(B.signature)]: SIGNATURE,
  [blk(B.count)]: 42.5,
  [blk(B.rating)]: 4,
  [blk(B.address)]: ["75001", "1 rue de Rivoli", ""],
  [blk(B.range)]: ["2024-05-01", "2024-05-03"],
  [blk(B.rank)]: ["c", "a", "b"],
  [blk(B.rowA)]: "b",
  [blk(B.rowB)]: "a",
  [blk(B.gridA)]: ["a", "b"],
  [blk(B.gridB)]: ["c"],
  [blk(B.source)]: "newsletter"
}

export interface FilePart {
  readonly name: string
  readonly filename: string
  readonly type: string
  readonly bytes: Uint8Array
}

/** The post as `application/x-www-form-urlencoded`. */
export const urlencoded = (fields: ReadonlyArray<readonly [string, string]>): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields.map(([k, v]): [string, string] => [k, v])).toString()
})

/**
 * The post as `multipart/form-data`, written as a browser writes it (text fields, then the file
 * parts; a file input with nothing picked sends `filename=""` and no bytes).
 */
export const multipart = (
  fields: ReadonlyArray<readonly [string, string]>,
  files: ReadonlyArray<FilePart> = []
): RequestInit => {
  const boundary = `----FolioFormBoundary${Math.random().toString(36).slice(2)}`
  const encoder = new TextEncoder()
  const quoted = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
  const chunks: Array<Uint8Array> = []
  for (const [name, value] of fields) {
    chunks.push(
      encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n`),
      encoder.encode(value.replace(/\r?\n/g, "\r\n")),
      encoder.encode("\r\n")
    )
  }
  for (const file of files) {
    chunks.push(
      encoder.encode(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.type}\r\n\r\n`
      ),
      file.bytes,
      encoder.encode("\r\n")
    )
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`))
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    body.set(chunk, at)
    at += chunk.byteLength
  }
  return { method: "POST", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body }
}
