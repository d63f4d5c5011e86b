// Small builders shared by the tests: block ids, a three-choice list, strict decoding of a definition,
// a form with a photo upload and the PNG bytes it takes.
import { decodeFormDefinition, type FormDefinition } from "@folio/domain"
import { Result } from "effect"

export const blk = (n: number) => `blk_${String(n).padStart(8, "0")}`

export const abc = [
  { id: "a", label: "A" },
  { id: "b", label: "B" },
  { id: "c", label: "C" }
]

/** Decodes a definition a test wrote by hand; a mistake in the fixture fails loudly with its issues. */
export const definitionOf = (input: unknown): FormDefinition => {
  const result = decodeFormDefinition(input)
  if (Result.isFailure(result)) throw new Error(JSON.stringify(result.failure.issues))
  return result.success
}

/** The first bytes of a PNG (enough for the sniffers that check a file is what it says). */
export const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82, 1, 2, 3
])

/** A form with a name and a one-photo upload (PNG only). */
export const photoFormDefinition = {
  schemaVersion: 1,
  blocks: [
    { id: blk(1), type: "short_text", label: "Name" },
    {
      id: blk(2),
      type: "file_upload",
      label: "Photo",
      options: { maxFiles: 1, acceptedMimeTypes: ["image/png"] }
    }
  ]
}
