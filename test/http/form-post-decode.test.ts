// The JavaScript-off post of the form page read against the definition: every block type's field
// encoding, the "other" choice, compound and positional blocks, files and the control fields.
import { decodeFormDefinition, type FormDefinition } from "@folio/domain"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import {
  decodeFormPost,
  FORM_POST_NAMES,
  type PostedField
} from "../../packages/adapters-http/src/forms/page/form-post.js"
import { blk } from "../support/builders.js"
import { allTypesDefinition, B, fullAnswers, fullPost, PNG } from "../support/form-post.js"

const definitionOf = (input: unknown): FormDefinition => {
  const result = decodeFormDefinition(input)
  if (Result.isFailure(result)) throw new Error(JSON.stringify(result.failure.issues))
  return result.success
}

const definition = definitionOf(allTypesDefinition)
const answersOf = (fields: ReadonlyArray<PostedField>) => decodeFormPost(definition, fields).answers

describe("decodeFormPost", () => {
  it("reads a whole form of every input block type into the answers the API takes", () => {
    const post = decodeFormPost(definition, fullPost)
    // The hidden field is the server's, from the URL parameter.
    const { [blk(B.source)]: _hidden, ...expected } = fullAnswers
    expect(post.answers).toEqual(expected)
    expect(post.params).toEqual({ src: "newsletter" })
    expect(post.confirmRepeat).toBe(false)
    expect(post.continuation).toBeUndefined()
    expect(post.files).toEqual([])
    expect(post.keep).toEqual({})
  })

  it("leaves out every empty value: an empty form answers nothing", () => {
    const empty = fullPost.map(([name]): PostedField => [name, ""])
    expect(answersOf(empty)).toEqual({})
  })

  it.each([
    ["short_text", B.name, "Ann"],
    ["long_text", B.bio, "a\nb"],
    ["email", B.email, "x@y.z"],
    ["phone (short_text)", B.phone, "+1 555"],
    ["url (short_text)", B.site, "https://x.y"],
    ["date", B.date, "2024-01-31"],
    ["time", B.time, "23:59"],
    ["datetime-local", B.datetime, "2024-01-31T23:59"],
    ["multiple_choice", B.pick, "b"],
    ["dropdown", B.drop, "c"],
    ["countries dropdown", B.country, "JP"],
    ["privacy_consent agree", B.consent, "y"],
    ["privacy_consent decline", B.consent, "n"],
    ["signature", B.signature, "data:image/png;base64,AAAA"],
    ["matrix radio row", B.rowB, "c"]
  ])("%s: the value as sent", (_type, n, value) => {
    expect(answersOf([[blk(n), value]])).toEqual({ [blk(n)]: value })
  })

  it("takes the first non-empty value of a single-value block", () => {
    expect(
      answersOf([
        [blk(B.name), ""],
        [blk(B.name), "Ann"],
        [blk(B.name), "Bo"]
      ])
    ).toEqual({
      [blk(B.name)]: "Ann"
    })
  })

  it.each([
    ["42", 42],
    ["-3.5", -3.5],
    ["1e3", 1000],
    [" 7 ", 7],
    [".5", 0.5]
  ])("number and rating: %j is the number %j", (text, value) => {
    expect(answersOf([[blk(B.count), text]])).toEqual({ [blk(B.count)]: value })
    expect(answersOf([[blk(B.rating), text]])).toEqual({ [blk(B.rating)]: value })
  })

  it.each(["abc", "1,5", "0x10", "Infinity", "1e999", "NaN", "--1"])(
    "number and rating: %j stays text, so the domain reports the rule",
    (text) => {
      expect(answersOf([[blk(B.count), text]])).toEqual({ [blk(B.count)]: text })
      expect(answersOf([[blk(B.rating), text]])).toEqual({ [blk(B.rating)]: text })
    }
  )

  describe("the other choice", () => {
    const other = FORM_POST_NAMES.otherChoice
    it("multiple_choice: the text is the answer", () => {
      expect(
        answersOf([
          [blk(B.pick), other],
          [`${blk(B.pick)}.other`, "Mine"]
        ])
      ).toEqual({
        [blk(B.pick)]: "Mine"
      })
    })
    it("multiple_choice: other with empty text is unanswered", () => {
      expect(
        answersOf([
          [blk(B.pick), other],
          [`${blk(B.pick)}.other`, ""]
        ])
      ).toEqual({})
      expect(answersOf([[blk(B.pick), other]])).toEqual({})
    })
    it("multiple_choice: text typed under another choice is ignored", () => {
      expect(
        answersOf([
          [blk(B.pick), "a"],
          [`${blk(B.pick)}.other`, "Mine"]
        ])
      ).toEqual({
        [blk(B.pick)]: "a"
      })
    })
    it("checkboxes: the text joins the choices in place", () => {
      expect(
        answersOf([
          [blk(B.many), "b"],
          [blk(B.many), other],
          [`${blk(B.many)}.other`, "Mine"]
        ])
      ).toEqual({ [blk(B.many)]: ["b", "Mine"] })
    })
    it("checkboxes: other with empty text is dropped", () => {
      expect(
        answersOf([
          [blk(B.many), "b"],
          [blk(B.many), other]
        ])
      ).toEqual({ [blk(B.many)]: ["b"] })
      expect(
        answersOf([
          [blk(B.many), other],
          [`${blk(B.many)}.other`, ""]
        ])
      ).toEqual({})
    })
  })

  it("checkboxes and matrix checkbox rows: one field per checked choice, in order", () => {
    expect(
      answersOf([
        [blk(B.many), "c"],
        [blk(B.many), "a"]
      ])
    ).toEqual({ [blk(B.many)]: ["c", "a"] })
    expect(
      answersOf([
        [blk(B.gridB), "b"],
        [blk(B.gridB), ""]
      ])
    ).toEqual({ [blk(B.gridB)]: ["b"] })
  })

  describe("positional blocks", () => {
    const part = FORM_POST_NAMES.part
    it("address: three parts, empty ones kept while any is filled", () => {
      expect(
        answersOf([
          [part(blk(B.address), 0), ""],
          [part(blk(B.address), 1), "Main St"],
          [part(blk(B.address), 2), ""]
        ])
      ).toEqual({ [blk(B.address)]: ["", "Main St", ""] })
      // A missing part reads as empty.
      expect(answersOf([[part(blk(B.address), 2), "Flat 2"]])).toEqual({
        [blk(B.address)]: ["", "", "Flat 2"]
      })
    })
    it("address: all empty is unanswered", () => {
      expect(answersOf([0, 1, 2].map((i): PostedField => [part(blk(B.address), i), ""]))).toEqual({})
    })
    it("date_range: start and end; both empty is unanswered", () => {
      expect(
        answersOf([
          [part(blk(B.range), 1), "2024-01-02"],
          [part(blk(B.range), 0), "2024-01-01"]
        ])
      ).toEqual({ [blk(B.range)]: ["2024-01-01", "2024-01-02"] })
      expect(
        answersOf([
          [part(blk(B.range), 0), ""],
          [part(blk(B.range), 1), ""]
        ])
      ).toEqual({})
    })
    it("ranking: the choice at each position, in position order; all empty is unanswered", () => {
      expect(
        answersOf([
          [part(blk(B.rank), 2), "a"],
          [part(blk(B.rank), 0), "b"],
          [part(blk(B.rank), 1), "c"]
        ])
      ).toEqual({ [blk(B.rank)]: ["b", "c", "a"] })
      expect(answersOf([[part(blk(B.rank), 0), ""]])).toEqual({})
      // Positions beyond the choices are not the block's.
      expect(answersOf([[part(blk(B.rank), 3), "a"]])).toEqual({})
    })
  })

  describe("file_upload", () => {
    const file = (name: string, filename: string, bytes: Uint8Array) => ({
      name,
      filename,
      contentType: "image/png",
      bytes
    })
    it("file parts of the block become uploads; empty parts (nothing picked) are skipped", () => {
      const post = decodeFormPost(
        definition,
        [],
        [
          file(blk(B.files), "", new Uint8Array()),
          file(blk(B.files), "me.png", PNG),
          file(blk(B.name), "other.png", PNG),
          file("blk_99999999", "x.png", PNG)
        ]
      )
      expect(post.files).toEqual([
        { blockId: blk(B.files), filename: "me.png", contentType: "image/png", bytes: PNG }
      ])
      // A picked file that is empty is still sent, for the domain to refuse.
      expect(
        decodeFormPost(definition, [], [file(blk(B.files), "e.png", new Uint8Array())]).files
      ).toHaveLength(1)
    })
    it("keys to keep, per block, deduplicated; never an answer of their own", () => {
      const post = decodeFormPost(definition, [
        [FORM_POST_NAMES.keep(blk(B.files)), "k1"],
        [FORM_POST_NAMES.keep(blk(B.files)), "k2"],
        [FORM_POST_NAMES.keep(blk(B.files)), "k1"],
        [FORM_POST_NAMES.keep(blk(B.files)), ""],
        [FORM_POST_NAMES.keep(blk(B.name)), "k3"],
        [blk(B.files), "not a file"]
      ])
      expect(post.keep).toEqual({ [blk(B.files)]: ["k1", "k2"] })
      expect(post.answers).toEqual({})
    })
  })

  it("ignores names a browser could not send from the page: unknown blocks, layout and server-set blocks", () => {
    expect(
      answersOf([
        ["blk_99999999", "x"],
        ["name", "x"],
        [blk(B.intro), "x"],
        [blk(B.source), "forged"],
        [`${blk(B.name)}.0`, "x"],
        [`${blk(B.email)}.other`, "x"]
      ])
    ).toEqual({})
  })

  describe("control fields", () => {
    const id = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"
    it("_response and _token continue an earlier attempt", () => {
      expect(
        decodeFormPost(definition, [
          ["_response", id],
          ["_token", "tok"]
        ]).continuation
      ).toEqual({
        responseId: id,
        token: "tok"
      })
    })
    it.each([
      ["no token", [["_response", id]]],
      [
        "empty token",
        [
          ["_response", id],
          ["_token", ""]
        ]
      ],
      [
        "not a response id",
        [
          ["_response", "1 or 1=1"],
          ["_token", "tok"]
        ]
      ],
      [
        "an overlong token",
        [
          ["_response", id],
          ["_token", "t".repeat(201)]
        ]
      ]
    ] as const)("no continuation with %s", (_case, fields) => {
      expect(decodeFormPost(definition, fields).continuation).toBeUndefined()
    })
    it("_confirmRepeat=1 confirms answering again; anything else does not", () => {
      expect(decodeFormPost(definition, [["_confirmRepeat", "1"]]).confirmRepeat).toBe(true)
      expect(decodeFormPost(definition, [["_confirmRepeat", "true"]]).confirmRepeat).toBe(false)
    })
    it("_param.<name> are the URL parameters, the first of each name, empty values kept", () => {
      expect(
        decodeFormPost(definition, [
          ["_param.src", "a"],
          ["_param.src", "b"],
          ["_param.ref", ""],
          ["_param.", "nameless"],
          ["_param.__proto__", "x"]
        ]).params
      ).toEqual(
        Object.fromEntries([
          ["src", "a"],
          ["ref", ""],
          ["__proto__", "x"]
        ])
      )
    })
  })
})
