// Creating and redeploying HTML artifacts (sharing-api.md, HTML artifacts). A multipart body holds
// a `metadata` JSON part and either one `archive` (ZIP) or one part per `metadata.files` entry.
// Every file streams into a staging object of this request while its SHA-256 is computed, and is
// kept once per artifact under that digest: a patch deploy that changes one file of a 500-file site
// writes that one file. Paths, limits and the entry page are checked before the deployment is
// written. The deployment row is written first (claiming its number, so one request at a time
// publishes objects of an artifact), then the staged files become objects, then the artifact's CAS
// update makes it current; a failure leaves no row and no new bytes.
import { sha256 } from "@noble/hashes/sha2"
import { Clock, Effect, Exit, Option, Schema, type Scope, Stream } from "effect"
import { Principal } from "../../identity/principal.js"
import { toHex } from "../../kernel/digest.js"
import type { StorageError } from "../../kernel/errors.js"
import { issuesOf, STRICT_ALL } from "../../kernel/issues.js"
import { BlobStore, BlobTooLarge } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  ArtifactIndexMissing,
  ArtifactPathInvalid,
  ArtifactTooLarge,
  ArtifactTooManyFiles,
  DeletePathsWithoutPatch,
  DeletePathUnknown,
  DeployArchiveAndFiles,
  DeployArchivePathsListed,
  DeployContentMissing,
  DeployFilePartMissing,
  DeployMetadataMissing,
  DeployMetadataNotJson,
  DeployMetadataRepeated,
  DeployMetadataTooLong,
  DeployPartRepeated,
  DeployPartUnknown,
  DeployPartUnplaced,
  InvalidField,
  PatchBaseMissing,
  ResourceChanged,
  type SharingFieldRefusal,
  StorageQuotaExceeded
} from "../errors.js"
import type { UploadBodyError, UploadPart } from "../files/upload.js"
import { UploadPolicy } from "../files/upload.js"
import { unavailability } from "../links/destination.js"
import type { SuspendedAccounts } from "../../identity/ports/suspended-accounts.js"
import { resourceServedPublicly } from "../public-access.js"
import { Rfc3339 } from "../links/rules.js"
import { type ArchiveRefusal, ArtifactArchives } from "../ports/archives.js"
import {
  ArtifactDeployments,
  type DeployedFile,
  type DeploymentRecord
} from "../ports/artifact-deployments.js"
import { hashPassword } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import {
  newResourceRecord,
  type ResourceRecord,
  type ResourceRecordOf,
  resourceBlobPrefix,
  Visibility
} from "../resources/resource.js"
import {
  describedBy,
  ResourceDescription,
  ResourceLabels,
  ResourceSlug,
  ResourceTitle
} from "../resources/rules.js"
import { insertResource, ownedOfType } from "../resources/use-cases.js"
import { ResourcePassword } from "../resources/wire.js"
import { ArtifactPolicy, type ArtifactLimits } from "./limits.js"
import { checkArtifactPath, entryPageOf, firstClash } from "./paths.js"

const FileEntry = Schema.Struct({
  /** The multipart part holding the file (its uploaded file name is ignored). */
  part: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
  path: Schema.String.check(Schema.isMaxLength(1024))
})

/** The `metadata` part of `POST /artifacts`. */
export const ArtifactMetadata = Schema.Struct({
  slug: Schema.optionalKey(ResourceSlug),
  title: Schema.optionalKey(Schema.NullOr(ResourceTitle)),
  description: Schema.optionalKey(Schema.NullOr(ResourceDescription)),
  visibility: Schema.optionalKey(Visibility),
  password: Schema.optionalKey(Schema.NullOr(ResourcePassword)),
  expires_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  labels: Schema.optionalKey(ResourceLabels),
  files: Schema.optionalKey(Schema.Array(FileEntry).check(Schema.isMaxLength(500)))
}).annotate({ identifier: "ArtifactMetadata" })

/** The `metadata` part of `POST /resources/{slug}/artifact/deployments`. */
export const DeploymentMetadata = Schema.Struct({
  /** `full` (the default) replaces every file; `patch` changes the base's files. */
  mode: Schema.optionalKey(Schema.Literals(["full", "patch"])),
  /** With `patch`: the current deployment (else 412 etag_mismatch). */
  base_deployment_id: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  /** With `patch`: paths of the base to remove. */
  delete_paths: Schema.optionalKey(
    Schema.Array(Schema.String.check(Schema.isMaxLength(1024))).check(Schema.isMaxLength(500))
  ),
  files: Schema.optionalKey(Schema.Array(FileEntry).check(Schema.isMaxLength(500)))
}).annotate({ identifier: "DeploymentMetadata" })

/** The most bytes of the metadata part. */
const MAX_METADATA_BYTES = 256 * 1024

type SiteFailure =
  | SharingFieldRefusal
  | ArtifactTooLarge
  | ArtifactTooManyFiles
  | ArchiveRefusal
  | UploadBodyError
  | StorageError

/** A file received: by its part name (files mode) or its archive path (archive mode). */
interface Received {
  readonly name: string
  readonly sha256: string
  readonly size: number
}

/**
 * The bytes of a request not yet published: staging key and size by digest (the same bytes twice
 * are staged once). Keys leave the map as they are published or deleted.
 */
type Staged = Map<string, { readonly key: string; readonly size: number }>

/** The objects a request made from its staged files (digest, staging key, size), for undoing. */
type Published = Array<{ readonly sha: string; readonly key: string; readonly size: number }>

/** Where an artifact keeps the bytes named by a digest. */
export const artifactObjectKey = (r: { readonly tenantId: string; readonly id: string }, sha: string) =>
  `${resourceBlobPrefix(r)}objects/${sha}`

const decodeJson = <A, I>(schema: Schema.Codec<A, I>, text: string | undefined) =>
  Effect.gen(function* () {
    if (text === undefined) return yield* new DeployMetadataMissing()
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return yield* new DeployMetadataNotJson()
    }
    return yield* Schema.decodeUnknownEffect(schema)(value, STRICT_ALL).pipe(
      Effect.mapError((error) => {
        const first = issuesOf(error)[0]
        const path = first === undefined || first.path.length === 0 ? "" : `.${first.path.join(".")}`
        return new InvalidField({
          field: `metadata${path}`,
          reason: first?.expected ?? first?.rule ?? "invalid"
        })
      })
    )
  })

/**
 * Reads an artifact body: the metadata text, and every file staged in the artifact's prefix
 * (`owner`) under a key of this request's own, listed in `staged` (which the caller cleans up).
 */
const receiveSite = (
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  owner: { readonly tenantId: string; readonly id: string },
  limits: ArtifactLimits,
  staged: Staged
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    const archives = yield* ArtifactArchives
    const ids = yield* IdGen
    let metadata: string | undefined
    let mode: "archive" | "files" | undefined
    const received: Array<Received> = []
    let total = 0

    /** One file into a staging object; the same bytes twice are staged once. */
    const store = <E>(name: string, content: Stream.Stream<Uint8Array, E>) =>
      Effect.gen(function* () {
        if (received.length + 1 > limits.files)
          return yield* new ArtifactTooManyFiles({ maxFiles: limits.files })
        const staging = `${resourceBlobPrefix(owner)}staging/${yield* ids.uuid}`
        const hash = sha256.create()
        const { size } = yield* blobs
          .putStream(
            staging,
            Stream.tap(content, (chunk) => Effect.sync(() => hash.update(chunk))),
            {
              contentType: "application/octet-stream",
              maxBytes: limits.fileBytes
            }
          )
          .pipe(
            Effect.catchIf(
              (e): e is BlobTooLarge => e instanceof BlobTooLarge,
              () => Effect.fail(new ArtifactTooLarge({ over: "file", maxBytes: limits.fileBytes }))
            )
          )
        total += size
        if (total > limits.siteBytes) {
          yield* Effect.ignore(blobs.delete(staging))
          return yield* new ArtifactTooLarge({ over: "site", maxBytes: limits.siteBytes })
        }
        const sha = toHex(hash.digest())
        if (staged.has(sha)) yield* blobs.delete(staging)
        else staged.set(sha, { key: staging, size })
        received.push({ name, sha256: sha, size })
      })

    yield* Effect.scoped(
      Stream.runForEach(parts, (part): Effect.Effect<void, SiteFailure, Scope.Scope> => {
        if (part._tag === "Field") {
          if (part.name !== "metadata")
            return Effect.fail(new DeployPartUnknown({ field: part.name.slice(0, 40) }))
          if (metadata !== undefined) return Effect.fail(new DeployMetadataRepeated())
          if (part.value.length > MAX_METADATA_BYTES) return Effect.fail(new DeployMetadataTooLong())
          metadata = part.value
          return Effect.void
        }
        if (part.name === "archive") {
          if (mode !== undefined) return Effect.fail(new DeployArchiveAndFiles())
          mode = "archive"
          return Effect.flatMap(archives.open(part.content, limits), (entries) =>
            Effect.forEach(entries, (entry) => store(entry.path, entry.read()), { discard: true })
          )
        }
        if (mode === "archive") return Effect.fail(new DeployArchiveAndFiles())
        mode = "files"
        if (received.some((r) => r.name === part.name))
          return Effect.fail(new DeployPartRepeated({ field: part.name.slice(0, 40) }))
        return store(part.name, part.content)
      })
    )
    return { metadata, mode, received }
  })

/**
 * Makes every staged file an object of the artifact unless those bytes already are one; answers the
 * bytes added. Only a holder of the artifact's next deployment number may call it, so an object that
 * exists belongs to a deployment made current (and was counted then), and the objects this call
 * adds (listed in `published`, for undoing) are seen by no one else until its deployment lands.
 */
const publishStaged = (
  owner: { readonly tenantId: string; readonly id: string },
  staged: Staged,
  published: Published
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    let newBytes = 0
    for (const [sha, file] of [...staged]) {
      const key = artifactObjectKey(owner, sha)
      if (Option.isSome(yield* blobs.head(key))) yield* blobs.delete(file.key)
      else {
        yield* blobs.move(file.key, key)
        published.push({ sha, key: file.key, size: file.size })
        newBytes += file.size
      }
      staged.delete(sha)
    }
    return newBytes
  })

/** Puts the objects a publish added back to staging (their deployment did not land), for a retry. */
const unpublish = (
  owner: { readonly tenantId: string; readonly id: string },
  staged: Staged,
  published: Published
) =>
  Effect.gen(function* () {
    const blobs = yield* BlobStore
    for (const p of published.splice(0)) {
      yield* blobs.move(artifactObjectKey(owner, p.sha), p.key)
      staged.set(p.sha, { key: p.key, size: p.size })
    }
  })

/** Deletes what a request that did not land left: the objects it added, then its staged files. */
const discardBytes = (
  owner: { readonly tenantId: string; readonly id: string },
  staged: Staged,
  published: ReadonlyArray<{ readonly sha: string }>
) =>
  Effect.flatMap(Effect.service(BlobStore), (blobs) =>
    Effect.forEach(
      [...published.map((p) => artifactObjectKey(owner, p.sha)), ...[...staged.values()].map((f) => f.key)],
      (key) => Effect.ignore(blobs.delete(key)),
      { discard: true }
    )
  )

/** The site's files: `received` placed at their paths (files mode maps part names through `entries`). */
const placeFiles = (
  mode: "archive" | "files" | undefined,
  received: ReadonlyArray<Received>,
  entries: ReadonlyArray<{ readonly part: string; readonly path: string }> | undefined
) =>
  Effect.gen(function* () {
    if (mode === "archive") {
      if (entries !== undefined && entries.length > 0) return yield* new DeployArchivePathsListed()
      return received.map((r): DeployedFile => ({ path: r.name, sha256: r.sha256, size: r.size }))
    }
    const byPart = new Map(received.map((r) => [r.name, r]))
    const placed: Array<DeployedFile> = []
    for (const [i, entry] of (entries ?? []).entries()) {
      const file = byPart.get(entry.part)
      if (file === undefined) return yield* new DeployFilePartMissing({ field: `metadata.files.${i}.part` })
      byPart.delete(entry.part)
      placed.push({ path: entry.path, sha256: file.sha256, size: file.size })
    }
    const stray = [...byPart.keys()][0]
    if (stray !== undefined) return yield* new DeployPartUnplaced({ field: stray.slice(0, 40) })
    return placed
  })

/** The files checked as a site: paths, clashes, count, size, and an entry page that is not empty. */
const checkSite = (files: ReadonlyArray<DeployedFile>, limits: ArtifactLimits) =>
  Effect.gen(function* () {
    for (const f of files) {
      const checked = checkArtifactPath(f.path)
      if (checked._tag === "Failure") return yield* new ArtifactPathInvalid({ problem: checked.failure })
    }
    if (firstClash(files.map((f) => f.path)) !== undefined)
      return yield* new ArtifactPathInvalid({ problem: "paths_clash" })
    if (files.length > limits.files) return yield* new ArtifactTooManyFiles({ maxFiles: limits.files })
    const siteBytes = files.reduce((n, f) => n + f.size, 0)
    if (siteBytes > limits.siteBytes)
      return yield* new ArtifactTooLarge({ over: "site", maxBytes: limits.siteBytes })
    const entry = entryPageOf(files)
    if (entry === undefined) return yield* new ArtifactIndexMissing({ problem: "no_html_page" })
    if (entry.size === 0) return yield* new ArtifactIndexMissing({ problem: "entry_page_empty" })
    return { entryPath: entry.path, siteBytes }
  })

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

/** `POST /artifacts`: a new artifact resource and its first deployment. */
export const createArtifact = (parts: Stream.Stream<UploadPart, UploadBodyError>) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const ids = yield* IdGen
    const blobs = yield* BlobStore
    const deployments = yield* ArtifactDeployments
    const limits = yield* ArtifactPolicy
    const policy = yield* UploadPolicy
    const id = yield* ids.uuidV7
    const owner = { tenantId: principal.tenant, id }
    const deploymentId = yield* ids.uuid
    let landed = false
    const run = Effect.gen(function* () {
      const staged: Staged = new Map()
      const body = yield* receiveSite(parts, owner, limits, staged)
      const metadata = yield* decodeJson(ArtifactMetadata, body.metadata)
      if (body.mode === undefined) return yield* new DeployContentMissing()
      const files = yield* placeFiles(body.mode, body.received, metadata.files)
      const site = yield* checkSite(files, limits)
      // A new artifact's prefix is this request's alone: its files publish at once.
      const newBytes = yield* publishStaged(owner, staged, [])
      const at = yield* now
      const deployment: DeploymentRecord = {
        id: deploymentId,
        tenantId: principal.tenant,
        resourceId: id,
        number: 1,
        baseDeploymentId: null,
        files,
        entryPath: site.entryPath,
        siteBytes: site.siteBytes,
        createdAt: at
      }
      if ((yield* deployments.insert(deployment)) === "taken")
        return yield* Effect.die(new Error("a new artifact's first deployment number was taken"))
      const passwordHash = yield* hashPassword(metadata.password)
      const recordAt = (slug: string): ResourceRecord =>
        newResourceRecord(
          {
            id,
            tenantId: principal.tenant,
            slug,
            ...describedBy(metadata),
            passwordHash,
            expiresAt:
              metadata.expires_at === undefined || metadata.expires_at === null
                ? null
                : new Date(metadata.expires_at),
            storedBytes: newBytes,
            at
          },
          {
            type: "artifact",
            data: {
              deploymentId,
              deploymentNumber: 1,
              entryPath: site.entryPath,
              fileCount: files.length,
              siteBytes: site.siteBytes
            }
          }
        )
      return yield* Effect.uninterruptible(
        Effect.tap(insertResource(recordAt, metadata.slug, { quotaBytes: policy.quotaBytes }), () =>
          Effect.sync(() => {
            landed = true
          })
        )
      )
    })
    return yield* run.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed
          ? Effect.void
          : Effect.ignore(
              Effect.andThen(deployments.discard(deploymentId), blobs.deletePrefix(resourceBlobPrefix(owner)))
            )
      )
    )
  })

/** `POST /resources/{slug}/artifact/deployments`: a new version, full or a patch of the current one. */
export const deployArtifact = (slug: string, parts: Stream.Stream<UploadPart, UploadBodyError>) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const ids = yield* IdGen
    const repo = yield* ResourceRepository
    const deployments = yield* ArtifactDeployments
    const limits = yield* ArtifactPolicy
    const policy = yield* UploadPolicy
    const first = yield* ownedOfType(slug, "artifact", "an artifact")
    const staged: Staged = new Map()
    const published: Published = []
    const deploymentId = yield* ids.uuid
    let landed = false
    const run = Effect.gen(function* () {
      const body = yield* receiveSite(parts, first, limits, staged)
      const metadata = yield* decodeJson(DeploymentMetadata, body.metadata)
      const patch = metadata.mode === "patch"
      if (!patch && metadata.delete_paths !== undefined) return yield* new DeletePathsWithoutPatch()
      if (patch && metadata.base_deployment_id === undefined) return yield* new PatchBaseMissing()
      if (!patch && body.mode === undefined) return yield* new DeployContentMissing()
      const uploaded = yield* placeFiles(body.mode, body.received, metadata.files)
      const attempt = (n: number) =>
        Effect.gen(function* () {
          const current: ResourceRecordOf<"artifact"> =
            n === 0 ? first : yield* ownedOfType(slug, "artifact", "an artifact")
          let files: ReadonlyArray<DeployedFile> = uploaded
          if (patch) {
            if (metadata.base_deployment_id !== current.data.deploymentId) return yield* new ResourceChanged()
            const base = yield* deployments.get(principal.tenant, current.data.deploymentId)
            if (Option.isNone(base)) return yield* new ResourceChanged()
            const byPath = new Map(base.value.files.map((f) => [f.path, f]))
            for (const [i, path] of (metadata.delete_paths ?? []).entries()) {
              if (!byPath.delete(path))
                return yield* new DeletePathUnknown({ field: `metadata.delete_paths.${i}` })
            }
            for (const f of uploaded) byPath.set(f.path, f)
            files = [...byPath.values()]
          }
          const site = yield* checkSite(files, limits)
          const at = yield* now
          const number = current.data.deploymentNumber + 1
          const claim = yield* deployments.insert({
            id: deploymentId,
            tenantId: principal.tenant,
            resourceId: current.id,
            number,
            baseDeploymentId: patch ? current.data.deploymentId : null,
            files,
            entryPath: site.entryPath,
            siteBytes: site.siteBytes,
            createdAt: at
          })
          // Another deployment landed since `current` was read: a patch's base is gone, a full
          // deployment goes on top of it.
          if (claim === "taken")
            return patch ? yield* new ResourceChanged() : Option.none<ResourceRecordOf<"artifact">>()
          const newBytes = yield* publishStaged(current, staged, published)
          const next: ResourceRecordOf<"artifact"> = {
            ...current,
            storedBytes: current.storedBytes + newBytes,
            rowVersion: current.rowVersion + 1,
            updatedAt: at,
            data: {
              deploymentId,
              deploymentNumber: number,
              entryPath: site.entryPath,
              fileCount: files.length,
              siteBytes: site.siteBytes
            }
          }
          const outcome = yield* Effect.uninterruptible(
            Effect.tap(repo.update(principal.tenant, next, { quotaBytes: policy.quotaBytes }), (o) =>
              Effect.sync(() => {
                if (o === "updated") landed = true
              })
            )
          ).pipe(
            Effect.catchTags({
              ResourceSlugTaken: () => Effect.die(new Error("a deployment changed the slug")),
              StorageQuotaReached: () => Effect.fail(new StorageQuotaExceeded())
            })
          )
          if (outcome === "updated") return Option.some(next)
          // Lost to another write of the artifact: give the number back, objects first, and retry
          // on what is current now (a patch's base check decides whether it may).
          yield* unpublish(current, staged, published)
          yield* deployments.discard(deploymentId)
          return Option.none<ResourceRecordOf<"artifact">>()
        })
      // A full deployment retries whenever another deployment landed first (it has no precondition);
      // a patch only while its base is still current (another write, a title change, landed first).
      return yield* retryOnStale(LOST_RACE_TRIES, attempt, () => new ResourceChanged())
    })
    return yield* run.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed
          ? Effect.void
          : Effect.ignore(
              Effect.andThen(discardBytes(first, staged, published), deployments.discard(deploymentId))
            )
      )
    )
  })

/**
 * Whether a deployment's origin serves it now: only the current deployment of a live, public or
 * unlisted artifact of an account that is not suspended, within its window (`r` is the resource it
 * belongs to, if still live).
 */
export const deploymentServing = (
  r: ResourceRecord | undefined,
  deployment: DeploymentRecord,
  now: Date,
  accounts: SuspendedAccounts["Service"]
): "serve" | "not_found" | "replaced" | "unavailable" => {
  if (r === undefined || r.type !== "artifact" || !resourceServedPublicly(accounts, r)) return "not_found"
  if (r.data.deploymentId !== deployment.id) return "replaced"
  const window = {
    key: r.id,
    target_url: "",
    starts_at: r.startsAt,
    expires_at: r.expiresAt,
    max_views: null,
    views: 0
  }
  return unavailability(window, now) === undefined ? "serve" : "unavailable"
}
