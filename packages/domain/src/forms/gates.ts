// Capability gates: a workspace's disabled form kinds, render modes and features reject a write
// with `unprocessable`, naming what is disabled (never the input).
import { Result } from "effect"
import { Unprocessable } from "../kernel/errors.js"
import type { FormKind } from "./ports/forms.js"
import type { Capabilities } from "./capabilities.js"
import { definitionFeatures, type FormDefinition } from "./definition/definition.js"
import type { FormSettings } from "./settings/settings.js"

const FEATURE_FLAG = { file_upload: "fileUpload", ranking: "ranking", matrix: "matrix" } as const

export const checkKindAllowed = (kind: FormKind, caps: Capabilities): Result.Result<void, Unprocessable> =>
  kind === "interview" && !caps.formKinds.interview
    ? Result.fail(new Unprocessable({ message: "interview forms are not enabled for this workspace" }))
    : Result.succeed(undefined)

export const checkClassicDefinitionAllowed = (
  definition: FormDefinition,
  caps: Capabilities
): Result.Result<void, Unprocessable> => {
  const disabled = [...definitionFeatures(definition)].filter((f) => caps.features[FEATURE_FLAG[f]] === false)
  if (disabled.length === 0) return Result.succeed(undefined)
  return Result.fail(
    new Unprocessable({
      message: `the definition uses features not enabled for this workspace: ${disabled.join(", ")}`,
      issues: disabled.map((f) => ({ path: ["definition"], rule: `featureDisabled:${f}` }))
    })
  )
}

export const checkSettingsAllowed = (
  settings: FormSettings,
  caps: Capabilities
): Result.Result<void, Unprocessable> => {
  const mode = settings.renderMode
  return mode !== "classic" && !caps.renderModes[mode]
    ? Result.fail(
        new Unprocessable({
          message: `render mode ${mode} is not enabled for this workspace`,
          issues: [{ path: ["settings", "renderMode"], rule: "renderModeDisabled" }]
        })
      )
    : Result.succeed(undefined)
}
