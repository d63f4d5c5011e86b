// The limits of an HTML artifact (sharing-api.md, Limits): the spec's defaults, which a server may
// lower (never raise) through its configuration.
import { Context } from "effect"

const MIB = 1024 * 1024

export interface ArtifactLimits {
  /** Bytes of every file of one deployment together. */
  readonly siteBytes: number
  readonly files: number
  /** Bytes of one file. */
  readonly fileBytes: number
  /** Bytes of an uploaded ZIP archive. */
  readonly zipBytes: number
}

export const DEFAULT_ARTIFACT_LIMITS: ArtifactLimits = {
  siteBytes: 100 * MIB,
  files: 500,
  fileBytes: 50 * MIB,
  zipBytes: 50 * MIB
}

/** The limits of this server: each the lower of the spec's default and the configured value. */
export const artifactLimitsOf = (configured: Partial<ArtifactLimits>): ArtifactLimits => ({
  siteBytes: Math.min(DEFAULT_ARTIFACT_LIMITS.siteBytes, configured.siteBytes ?? Number.POSITIVE_INFINITY),
  files: Math.min(DEFAULT_ARTIFACT_LIMITS.files, configured.files ?? Number.POSITIVE_INFINITY),
  fileBytes: Math.min(DEFAULT_ARTIFACT_LIMITS.fileBytes, configured.fileBytes ?? Number.POSITIVE_INFINITY),
  zipBytes: Math.min(DEFAULT_ARTIFACT_LIMITS.zipBytes, configured.zipBytes ?? Number.POSITIVE_INFINITY)
})

/** The artifact limits in force (configuration sets them; the default is the spec's). */
export const ArtifactPolicy = Context.Reference<ArtifactLimits>("@folio/domain/ArtifactPolicy", {
  defaultValue: () => DEFAULT_ARTIFACT_LIMITS
})

/** Whether this server serves HTML artifacts (`features.artifacts_enabled`), and their host. */
export const ArtifactsFeature = Context.Reference<{ readonly enabled: boolean; readonly host: string }>(
  "@folio/domain/ArtifactsFeature",
  { defaultValue: () => ({ enabled: true, host: "localhost" }) }
)
