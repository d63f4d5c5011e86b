// `POST /resources/{slug}/file/optimize-original` and the job behind it: the stored original is
// re-encoded (or converted) by MediaTools, and when that is worth it the resource takes the new
// bytes (size, type, name and the account's stored bytes moved in one write), the old blob goes.
import { Clock, Effect, Option } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { NoOriginalFile, UnsupportedMedia } from "../errors.js"
import type { JobRecord } from "../../kernel/jobs/job.js"
import {
  JobFailed,
  type JobOutcome,
  skipped,
  storageUnavailable,
  succeeded
} from "../../kernel/jobs/outcome.js"
import { enqueueJob, newJob } from "../jobs/use-cases.js"
import { MediaTools } from "../ports/media.js"
import { ResourceRepository } from "../ports/resources.js"
import { isResourceOf, resourceBlobPrefix } from "../resources/resource.js"
import { ownedBySlug } from "../resources/use-cases.js"
import { optimizableType, worthReplacing } from "./optimize.js"
import { UploadPolicy } from "./upload.js"

export interface OptimizeOriginalInput {
  /** Keep the photo's location (EXIF GPS); removed by default. */
  readonly keep_location?: boolean | undefined
}

/** Queues the optimization of the caller's JPEG, HEIC or HEIF file or image. */
export const queueOptimizeOriginal = (slug: string, input: OptimizeOriginalInput) =>
  Effect.gen(function* () {
    const r = yield* ownedBySlug(slug)
    if (r.type !== "file" && r.type !== "image") return yield* new NoOriginalFile({ resourceType: r.type })
    if (optimizableType(r.data.contentType) === undefined)
      return yield* new UnsupportedMedia({ field: "file", problem: "not_optimizable" })
    return yield* enqueueJob(
      yield* newJob({
        type: "optimize_original",
        resourceId: r.id,
        payload: { keep_location: input.keep_location ?? false }
      })
    )
  })

/** `.heic` -> `.jpg`: the download name follows the new type. */
const jpegName = (fileName: string) => `${fileName.replace(/\.(heic|heif|jpe?g)$/i, "")}.jpg`

/** The job: runs with the job's account, no Principal. */
export const runOptimizeOriginal = (job: JobRecord): Effect.Effect<JobOutcome, JobFailed, OptimizePorts> =>
  Effect.gen(function* () {
    const repo = yield* ResourceRepository
    const blobs = yield* BlobStore
    const media = yield* MediaTools
    const policy = yield* UploadPolicy
    if (job.resourceId === null) return skipped({ reason: "resource_deleted" })
    const found = yield* repo.get(job.tenantId, job.resourceId)
    if (Option.isNone(found) || !isResourceOf(found.value, "file", "image"))
      return skipped({ reason: "resource_deleted" })
    const r = found.value
    const kind = optimizableType(r.data.contentType)
    if (kind === undefined) return skipped({ reason: "not_optimizable", media_type: r.data.contentType })
    const opened = yield* blobs.openRead(r.data.blobKey)
    if (Option.isNone(opened))
      return yield* new JobFailed({
        code: "original_missing",
        message: "the stored original is missing",
        retryable: false
      })
    const keepLocation = job.payload.keep_location === true
    const optimized = yield* media.optimizeOriginal(opened.value.body, {
      mediaType: r.data.contentType,
      keepLocation,
      maxInputBytes: Math.max(policy.maxBytes, r.data.size)
    })
    if (Option.isNone(optimized))
      return yield* new JobFailed({
        code: "image_unreadable",
        message: "the original does not decode as an image of its type",
        retryable: false
      })
    const image = optimized.value
    const sizes = { original_bytes: r.data.size, optimized_bytes: image.bytes.byteLength }
    if (!worthReplacing(r.data.size, image.bytes.byteLength, kind))
      return skipped({ reason: "already_optimal", ...sizes })

    const key = `${resourceBlobPrefix(r)}optimized/${job.id}.jpg`
    yield* blobs.put(key, { bytes: image.bytes, contentType: image.mediaType })
    const at = new Date(yield* Clock.currentTimeMillis)
    const next = {
      ...r,
      data: {
        ...r.data,
        blobKey: key,
        contentType: image.mediaType,
        size: image.bytes.byteLength,
        fileName: jpegName(r.data.fileName)
      },
      storedBytes: Math.max(0, r.storedBytes - r.data.size) + image.bytes.byteLength,
      rowVersion: r.rowVersion + 1,
      updatedAt: at
    }
    const written = yield* repo.update(job.tenantId, next, { quotaBytes: policy.quotaBytes }).pipe(
      Effect.catchTag("StorageQuotaReached", () =>
        Effect.andThen(
          blobs.delete(key).pipe(Effect.ignore),
          Effect.fail(
            new JobFailed({
              code: "quota_exceeded",
              message: "the converted file would exceed the account's storage quota",
              retryable: false
            })
          )
        )
      ),
      Effect.catchTag("ResourceSlugTaken", () => Effect.succeed("stale" as const))
    )
    if (written === "stale") {
      // The owner changed the resource meanwhile: try again on its new state.
      yield* blobs.delete(key).pipe(Effect.ignore)
      return yield* new JobFailed({
        code: "resource_changed",
        message: "the resource changed while it was optimized",
        retryable: true,
        retryAfterMs: 0
      })
    }
    yield* blobs.delete(r.data.blobKey).pipe(Effect.ignore)
    return succeeded({
      ...sizes,
      media_type: image.mediaType,
      width: image.width,
      height: image.height,
      location_kept: keepLocation
    })
  }).pipe(Effect.catchTag("StorageError", storageUnavailable("optimize-original")))

type OptimizePorts = ResourceRepository | BlobStore | MediaTools
