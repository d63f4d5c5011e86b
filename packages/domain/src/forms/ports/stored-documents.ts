// Port: reading stored definitions and settings back into domain values. The default decodes every
// time; a deployment may provide a reader that remembers answers (an adapter: caches are not domain).
import { Context } from "effect"
import type { FormDefinition } from "../definition/definition.js"
import {
  type AnyDefinition,
  readStoredDefinition,
  readStoredSettings,
  readVersionDefinition
} from "../form.js"
import type { FormSettings } from "../settings/settings.js"
import type { FormKind } from "./forms.js"

/**
 * The pure readers of form.ts, with an optional `identity` under which the stored document is known
 * never to change (a draft at one revision, settings with one signature, a version id): a reader
 * may key what it remembers by it instead of by the document's content. Answers never depend on it.
 */
export interface StoredFormDocuments {
  readonly definition: (kind: FormKind, stored: unknown, identity?: string) => AnyDefinition | null
  readonly settings: (stored: unknown, identity?: string) => FormSettings | null
  /** A published version's classic definition; versions are immutable, so the id is the identity. */
  readonly version: (versionId: string, stored: unknown) => FormDefinition | null
}

/** Decodes on every read: what pure callers and tests get unless a faster reader is provided. */
export const decodingStoredFormDocuments: StoredFormDocuments = {
  definition: (kind, stored) => readStoredDefinition(kind, stored),
  settings: (stored) => readStoredSettings(stored),
  version: (_versionId, stored) => readVersionDefinition(stored)
}

/** The reader the read paths take: decoding each time unless the deployment provides another. */
export const StoredFormDocumentReader = Context.Reference<StoredFormDocuments>(
  "@folio/domain/StoredFormDocumentReader",
  { defaultValue: () => decodingStoredFormDocuments }
)
