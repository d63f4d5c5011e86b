// Which blob keys a published form makes public (image blocks, choice images of every choice block,
// the theme's logo and cover, and nothing else), and the URL a respondent's page loads them from.
import { decodeFormSettings, defaultFormSettings, publicImageKeys, publicImageUrl } from "@folio/domain"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { blk, definitionOf } from "../support/builders.js"

const key = (name: string) =>
  `workspaces/0190f0c4-0000-7000-8000-000000000001/forms/0190f0c4-0000-7000-8000-000000000002/assets/${name}.png`

const definition = definitionOf({
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "image", imageKey: key("block") },
    { id: blk(2), type: "image" },
    {
      id: blk(3),
      type: "multiple_choice",
      label: "Pick",
      options: {
        choices: [
          { id: "a", label: "A", imageKey: key("choice-a") },
          { id: "b", label: "B" }
        ]
      }
    },
    {
      id: blk(4),
      type: "checkboxes",
      label: "Tick",
      options: { choices: [{ id: "c", label: "C", imageKey: key("choice-c") }] }
    },
    {
      id: blk(5),
      type: "dropdown",
      label: "Choose",
      options: { choices: [{ id: "d", label: "D", imageKey: key("choice-d") }] }
    },
    {
      id: blk(6),
      type: "ranking",
      label: "Rank",
      options: { choices: [{ id: "e", label: "E", imageKey: key("choice-e") }] }
    },
    { id: blk(7), type: "short_text", label: `Not an image: ${key("in-a-label")}` }
  ]
})

const settingsOf = (input: unknown) => Result.getOrThrow(decodeFormSettings(input))

describe("publicImageKeys", () => {
  it("holds the definition's image blocks and choice images and the theme's logo and cover", () => {
    const settings = settingsOf({ theme: { logoKey: key("logo"), coverKey: key("cover") } })
    expect([...publicImageKeys(definition, settings)].sort()).toEqual(
      ["block", "choice-a", "choice-c", "choice-d", "choice-e", "logo", "cover"].map(key).sort()
    )
  })

  it("holds nothing but those keys: no text that looks like a key, nothing from default settings", () => {
    const keys = publicImageKeys(definition, defaultFormSettings())
    expect(keys.has(key("in-a-label"))).toBe(false)
    expect(keys.has(key("logo"))).toBe(false)
    expect(keys.size).toBe(5)
    expect(publicImageKeys(definitionOf({ schemaVersion: 1, blocks: [] }), defaultFormSettings()).size).toBe(
      0
    )
  })
})

describe("publicImageUrl", () => {
  it("is the form's image route with each key segment percent-encoded, slashes kept", () => {
    expect(publicImageUrl("summer-survey", key("logo"))).toBe(`/f/summer-survey/images/${key("logo")}`)
    expect(publicImageUrl("a b", "x y/z?#%.png")).toBe("/f/a%20b/images/x%20y/z%3F%23%25.png")
  })
})
