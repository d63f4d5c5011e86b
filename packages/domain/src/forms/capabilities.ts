// The forms API's capabilities document: which form kinds, render modes, block types and authoring
// features a workspace has, evaluated from its feature flags over the defaults below.
import { Schema } from "effect"
import { FORMS_SCOPES, FormsScope } from "./scopes.js"
import { BLOCK_TYPES, type BlockType } from "./definition/block-types.js"

/** Allowlisted authoring feature flags and their defaults; other stored flags are never exposed. */
export const FEATURE_DEFAULTS = {
  interview: true,
  conversational: true,
  document: true,
  fileUpload: true,
  ranking: true,
  matrix: true,
  partialSubmissions: true
} as const satisfies Record<string, boolean>

export type FeatureName = keyof typeof FEATURE_DEFAULTS

/** Block types that exist only when a feature is on. */
export const BLOCK_TYPE_FEATURES: Partial<Record<BlockType, FeatureName>> = {
  file_upload: "fileUpload",
  ranking: "ranking"
}

export const Capabilities = Schema.Struct({
  scopes: Schema.Array(FormsScope),
  formKinds: Schema.Struct({ classic: Schema.Literal(true), interview: Schema.Boolean }),
  renderModes: Schema.Struct({
    classic: Schema.Literal(true),
    conversational: Schema.Boolean,
    document: Schema.Boolean
  }),
  blockTypes: Schema.Array(
    Schema.Struct({
      type: Schema.Literals(BLOCK_TYPES),
      enabled: Schema.Boolean,
      requiredFeature: Schema.optionalKey(Schema.String)
    })
  ),
  features: Schema.Record(Schema.String, Schema.Boolean),
  /** What this server can deliver: e-mail only when it has a mail transport (SMTP_URL). */
  notifications: Schema.Struct({ email: Schema.Boolean })
}).annotate({ identifier: "Capabilities" })
export type Capabilities = typeof Capabilities.Type

export const evaluateFeatures = (
  stored: Readonly<Record<string, boolean>>
): Readonly<Record<FeatureName, boolean>> => {
  const out = { ...FEATURE_DEFAULTS } as Record<FeatureName, boolean>
  for (const name of Object.keys(FEATURE_DEFAULTS) as Array<FeatureName>) {
    const value = stored[name]
    if (typeof value === "boolean") out[name] = value
  }
  return out
}

export const evaluateCapabilities = (
  stored: Readonly<Record<string, boolean>>,
  scopes: ReadonlyArray<string>,
  server: { readonly email: boolean } = { email: false }
): Capabilities => {
  const features = evaluateFeatures(stored)
  return {
    scopes: FORMS_SCOPES.filter((s: FormsScope) => scopes.includes(s)),
    formKinds: { classic: true, interview: features.interview },
    renderModes: { classic: true, conversational: features.conversational, document: features.document },
    blockTypes: BLOCK_TYPES.map((type) => {
      const feature = BLOCK_TYPE_FEATURES[type]
      return feature === undefined
        ? { type, enabled: true }
        : { type, enabled: features[feature], requiredFeature: feature }
    }),
    features,
    notifications: { email: server.email }
  }
}
