// Capability gates: a workspace's disabled form kinds, render modes and features reject a write,
// naming what is disabled (never the input).
import { Result } from "effect"
import type { FormKind } from "./ports/forms.js"
import type { Capabilities } from "./capabilities.js"
import { definitionFeatures, type FormDefinition } from "./definition/definition.js"
import { FeaturesDisabled, FormKindDisabled, RenderModeDisabled } from "./errors.js"
import type { FormSettings } from "./settings/settings.js"

const FEATURE_FLAG = { file_upload: "fileUpload", ranking: "ranking", matrix: "matrix" } as const

export const checkKindAllowed = (
  kind: FormKind,
  caps: Capabilities
): Result.Result<void, FormKindDisabled> =>
  kind === "interview" && !caps.formKinds.interview
    ? Result.fail(new FormKindDisabled({ kind }))
    : Result.succeed(undefined)

export const checkClassicDefinitionAllowed = (
  definition: FormDefinition,
  caps: Capabilities
): Result.Result<void, FeaturesDisabled> => {
  const disabled = [...definitionFeatures(definition)].filter((f) => caps.features[FEATURE_FLAG[f]] === false)
  return disabled.length === 0
    ? Result.succeed(undefined)
    : Result.fail(new FeaturesDisabled({ features: disabled }))
}

export const checkSettingsAllowed = (
  settings: FormSettings,
  caps: Capabilities
): Result.Result<void, RenderModeDisabled> => {
  const mode = settings.renderMode
  return mode !== "classic" && !caps.renderModes[mode]
    ? Result.fail(new RenderModeDisabled({ mode }))
    : Result.succeed(undefined)
}
