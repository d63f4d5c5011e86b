// The stored-document cache the app provides: the decoding reader's answers, decoded once per
// identity (or per document when there is none), at most 500 drafts of a kind and 1000 versions.
import { CachedStoredFormDocumentsLive, cachedStoredFormDocuments } from "@folio/adapters-storage"
import {
  decodingStoredFormDocuments,
  emptyFormDefinition,
  encodeFormDefinition,
  StoredFormDocumentReader,
  type StoredFormDocuments
} from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"

const stored = encodeFormDefinition(emptyFormDefinition())

/** The decoding reader, counting the decodes it is asked for. */
const counting = () => {
  const calls = { definition: 0, settings: 0, version: 0 }
  const inner: StoredFormDocuments = {
    definition: (kind, s) => {
      calls.definition++
      return decodingStoredFormDocuments.definition(kind, s)
    },
    settings: (s) => {
      calls.settings++
      return decodingStoredFormDocuments.settings(s)
    },
    version: (id, s) => {
      calls.version++
      return decodingStoredFormDocuments.version(id, s)
    }
  }
  return { calls, inner }
}

describe("cached stored form documents", () => {
  it("answers as the decoding reader does, unreadable documents included", () => {
    const cached = cachedStoredFormDocuments()
    for (const [i, doc] of [stored, { schemaVersion: 99 }].entries()) {
      expect(cached.definition("classic", doc, `f@${i}`)).toEqual(
        decodingStoredFormDocuments.definition("classic", doc)
      )
      expect(cached.definition("interview", doc)).toEqual(
        decodingStoredFormDocuments.definition("interview", doc)
      )
      expect(cached.settings(doc)).toEqual(decodingStoredFormDocuments.settings(doc))
      expect(cached.version(`v${i}`, doc)).toEqual(decodingStoredFormDocuments.version("v", doc))
    }
  })

  it("decodes once per identity, or per document content without one", () => {
    const { calls, inner } = counting()
    const cached = cachedStoredFormDocuments(inner)
    cached.definition("classic", stored, "f@1")
    cached.definition("classic", stored, "f@1")
    cached.definition("classic", structuredClone(stored))
    cached.definition("classic", structuredClone(stored))
    cached.version("v1", stored)
    cached.version("v1", null)
    expect(cached.version("v2", null)).toBeNull()
    expect(cached.version("v2", stored)).toBeNull()
    expect(calls).toEqual({ definition: 2, settings: 0, version: 2 })
  })

  it("keeps 500 drafts and 1000 versions, dropping the oldest first", () => {
    const { calls, inner } = counting()
    const cached = cachedStoredFormDocuments(inner)
    for (let i = 0; i <= 500; i++) cached.definition("classic", stored, `f@${i}`)
    cached.definition("classic", stored, "f@500")
    cached.definition("classic", stored, "f@1")
    expect(calls.definition).toBe(501)
    cached.definition("classic", stored, "f@0")
    expect(calls.definition).toBe(502)
    for (let i = 0; i <= 1000; i++) cached.version(`v${i}`, stored)
    cached.version("v1", stored)
    expect(calls.version).toBe(1001)
    cached.version("v0", stored)
    expect(calls.version).toBe(1002)
  })

  it("is what the layer provides, while pure callers decode each time", () => {
    const provided = Effect.runSync(
      Effect.provide(Effect.service(StoredFormDocumentReader), CachedStoredFormDocumentsLive)
    )
    expect(provided).not.toBe(decodingStoredFormDocuments)
    expect(Effect.runSync(Effect.service(StoredFormDocumentReader))).toBe(decodingStoredFormDocuments)
  })
})
