// SharingArtifacts: creating, deploying and reading HTML artifacts, over their ports. Every use
// case first checks that the server serves artifacts (503 artifacts_disabled when it does not).
import { Context, Effect, Layer } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { createArtifact, deployArtifact } from "../artifacts/deploy.js"
import { ArtifactsFeature } from "../artifacts/limits.js"
import { artifactFiles, artifactSource } from "../artifacts/use-cases.js"
import { ArtifactsDisabled } from "../errors.js"
import { ArtifactArchives } from "../ports/archives.js"
import { ArtifactDeployments } from "../ports/artifact-deployments.js"
import { PasswordHasher } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"

const enabled = Effect.flatMap(Effect.service(ArtifactsFeature), (f) =>
  f.enabled ? Effect.void : Effect.fail(new ArtifactsDisabled())
)

const artifacts = {
  create: (...args: Parameters<typeof createArtifact>) => Effect.andThen(enabled, createArtifact(...args)),
  deploy: (...args: Parameters<typeof deployArtifact>) => Effect.andThen(enabled, deployArtifact(...args)),
  files: (...args: Parameters<typeof artifactFiles>) => Effect.andThen(enabled, artifactFiles(...args)),
  source: (...args: Parameters<typeof artifactSource>) => Effect.andThen(enabled, artifactSource(...args))
}

export const makeSharingArtifacts = bindPortsFromContext(
  artifacts,
  ResourceRepository,
  ArtifactDeployments,
  ArtifactArchives,
  BlobStore,
  IdGen,
  PasswordHasher
)

export class SharingArtifacts extends Context.Service<
  SharingArtifacts,
  Effect.Success<typeof makeSharingArtifacts>
>()("@folio/domain/SharingArtifacts") {}

export const SharingArtifactsLive = Layer.effect(SharingArtifacts, makeSharingArtifacts)
