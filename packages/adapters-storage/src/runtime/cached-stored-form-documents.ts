// The stored-document reader that remembers: the same draft, settings and published version are
// read far more often than written, and decoding is pure, so an answer for one document is reused.
import {
  decodingStoredFormDocuments,
  StoredFormDocumentReader,
  type StoredFormDocuments
} from "@folio/domain"
import { Layer } from "effect"

/** At most `limit` answers, oldest out; a key is the document's identity, or else its JSON. */
const bounded = <A>(limit: number) => {
  const cache = new Map<string, A>()
  return (namespace: string, stored: unknown, identity: string | undefined, decode: () => A): A => {
    // With an identity (a form's draft at one revision, settings with one signature, a version id)
    // the document is known not to change, so serializing it to build a key is not needed.
    const key = identity === undefined ? `${namespace}:${JSON.stringify(stored)}` : `${namespace}#${identity}`
    const hit = cache.get(key)
    if (hit !== undefined || cache.has(key)) return hit as A
    const value = decode()
    if (cache.size >= limit) {
      const oldest = cache.keys().next()
      if (oldest.done !== true) cache.delete(oldest.value)
    }
    cache.set(key, value)
    return value
  }
}

/** The decoding reader's answers, each kept: 500 per kind of draft document, 1000 versions. */
export const cachedStoredFormDocuments = (
  inner: StoredFormDocuments = decodingStoredFormDocuments
): StoredFormDocuments => {
  const classic = bounded<ReturnType<StoredFormDocuments["definition"]>>(500)
  const interview = bounded<ReturnType<StoredFormDocuments["definition"]>>(500)
  const settings = bounded<ReturnType<StoredFormDocuments["settings"]>>(500)
  // Versions are immutable, so the id alone keys the decoded value and a respondent's every
  // request does not decode again.
  const versions = bounded<ReturnType<StoredFormDocuments["version"]>>(1000)
  return {
    definition: (kind, stored, identity) =>
      kind === "interview"
        ? interview("i", stored, identity, () => inner.definition(kind, stored))
        : classic("c", stored, identity, () => inner.definition(kind, stored)),
    settings: (stored, identity) => settings("s", stored, identity, () => inner.settings(stored)),
    version: (versionId, stored) => versions("v", stored, versionId, () => inner.version(versionId, stored))
  }
}

/** Stored documents read through one process-wide cache, built with the layer. */
export const CachedStoredFormDocumentsLive = Layer.sync(StoredFormDocumentReader, () =>
  cachedStoredFormDocuments()
)
