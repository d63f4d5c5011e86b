// Switching a workspace's forms features (the gates that answer 422) on and off: what the CLI does
// today and the owner console will; names are checked against the allowlist before anything is stored.
import { Data, Effect, Option } from "effect"
import { TenantNotFound } from "../identity/errors.js"
import { TenantRepository } from "../identity/ports/tenants.js"
import { audit } from "../identity/people/audit.js"
import type { NotAllowed } from "../identity/people/errors.js"
import { authorize, type ConsoleActor } from "../identity/people/roles.js"
import type { AuditLog } from "../identity/ports/people.js"
import type { StorageError } from "../kernel/errors.js"
import type { IdGen } from "../kernel/ports/id-gen.js"
import { evaluateFeatures, FEATURE_DEFAULTS, type FeatureName } from "./capabilities.js"

export const FEATURE_NAMES = Object.keys(FEATURE_DEFAULTS) as ReadonlyArray<FeatureName>

/** A name that is no feature of the forms service; `known` lists the ones there are. */
export class UnknownFeature extends Data.TaggedError("UnknownFeature")<{
  readonly name: string
  readonly known: ReadonlyArray<string>
}> {
  override get message() {
    return `unknown feature "${this.name}"; features: ${this.known.join(", ")}`
  }
}

/** The same feature asked to be both enabled and disabled. */
export class ContradictoryFeatureChange extends Data.TaggedError("ContradictoryFeatureChange")<{
  readonly name: string
}> {
  override get message() {
    return `feature "${this.name}" is both enabled and disabled; name it once`
  }
}

const camel = (name: string) => name.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())

/** A feature by its capabilities name (`partialSubmissions`) or in snake case (`partial_submissions`). */
export const featureNamed = (name: string): FeatureName | undefined =>
  FEATURE_NAMES.find((known) => known === camel(name.trim()))

const resolve = (names: ReadonlyArray<string>) =>
  Effect.forEach(names, (name) => {
    const known = featureNamed(name)
    return known === undefined
      ? Effect.fail(new UnknownFeature({ name, known: FEATURE_NAMES }))
      : Effect.succeed(known)
  })

/**
 * Enables and disables forms features of a workspace, keeping every other stored flag, and answers
 * the workspace's features afterwards (defaults filled in). Nothing is stored when a name is unknown.
 */
export const changeWorkspaceFeatures = (
  workspaceId: string,
  change: { readonly enable: ReadonlyArray<string>; readonly disable: ReadonlyArray<string> }
): Effect.Effect<
  Readonly<Record<FeatureName, boolean>>,
  UnknownFeature | ContradictoryFeatureChange | TenantNotFound | StorageError,
  TenantRepository
> =>
  Effect.gen(function* () {
    const enable = yield* resolve(change.enable)
    const disable = yield* resolve(change.disable)
    const both = enable.find((name) => disable.includes(name))
    if (both !== undefined) return yield* new ContradictoryFeatureChange({ name: both })
    const changes = Object.fromEntries([
      ...enable.map((name) => [name, true] as const),
      ...disable.map((name) => [name, false] as const)
    ])
    const repo = yield* TenantRepository
    const stored =
      Object.keys(changes).length === 0
        ? Option.map(yield* repo.get(workspaceId), (t) => t.features)
        : yield* repo.mergeFeatures(workspaceId, changes)
    if (Option.isNone(stored)) return yield* new TenantNotFound()
    return evaluateFeatures(stored.value)
  })

/**
 * The console's way to the same change: an owner or admin of the workspace, recorded in its audit
 * log (feature names only; there is nothing secret in a flag).
 */
export const changeWorkspaceFeaturesAs = (
  actor: ConsoleActor,
  change: { readonly enable: ReadonlyArray<string>; readonly disable: ReadonlyArray<string> }
): Effect.Effect<
  Readonly<Record<FeatureName, boolean>>,
  NotAllowed | UnknownFeature | ContradictoryFeatureChange | TenantNotFound | StorageError,
  TenantRepository | AuditLog | IdGen
> =>
  Effect.gen(function* () {
    yield* authorize(actor, "changeFeatures")
    const features = yield* changeWorkspaceFeatures(actor.tenantId, change)
    yield* audit(actor.tenantId, {
      action: "settings.changed",
      actorUserId: actor.userId,
      actorEmail: actor.email,
      target: "features",
      ip: actor.ip,
      details: {
        setting: "features",
        enabled: change.enable.map((n) => featureNamed(n) ?? n).join(","),
        disabled: change.disable.map((n) => featureNamed(n) ?? n).join(",")
      }
    })
    return features
  })
