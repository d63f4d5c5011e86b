// What an owner reads of an artifact: the current deployment's files (with whether each is editable
// as text) and one text file's source (up to 1 MiB).
import { Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { ArtifactFileNotEditable, ArtifactFileNotUtf8, ResourceNotFound } from "../errors.js"
import { ArtifactDeployments } from "../ports/artifact-deployments.js"
import { ownedOfType } from "../resources/use-cases.js"
import { artifactObjectKey } from "./deploy.js"
import { isEditableText } from "./paths.js"

/** The artifact at `slug` and its current deployment. */
const current = (slug: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const deployments = yield* ArtifactDeployments
    const artifact = yield* ownedOfType(slug, "artifact", "an artifact")
    const deployment = yield* deployments.get(principal.tenant, artifact.data.deploymentId)
    if (Option.isNone(deployment)) return yield* new ResourceNotFound()
    return { artifact, deployment: deployment.value }
  })

/** `GET /resources/{slug}/artifact/files`. */
export const artifactFiles = (slug: string) =>
  Effect.map(current(slug), ({ artifact, deployment }) => ({
    artifact,
    deployment,
    files: deployment.files.map((f) => ({ ...f, editable: isEditableText(f.path, f.size) }))
  }))

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** `GET /resources/{slug}/artifact/source?path=`: one text file of the current deployment. */
export const artifactSource = (slug: string, path: string) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const { artifact, deployment } = yield* current(slug)
    const file = deployment.files.find((f) => f.path === path)
    if (file === undefined) return yield* new ResourceNotFound()
    if (!isEditableText(file.path, file.size)) return yield* new ArtifactFileNotEditable()
    const object = yield* blobs.get(artifactObjectKey(artifact, file.sha256))
    if (Option.isNone(object)) return yield* new ResourceNotFound()
    try {
      return { path: file.path, size: file.size, source: utf8.decode(object.value.bytes) }
    } catch {
      return yield* new ArtifactFileNotUtf8()
    }
  })
