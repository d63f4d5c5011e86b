// A sender's submission to an upload request (its public page, no account): the request must take
// files now (open, not revoked, not expired) and its password, if it has one, must be given before
// the first file. Each file streams into the owner's storage (typed from its bytes, within the
// upload limit and the owner's quota) and becomes a private file or image resource of the owner;
// the submission and its `upload_request.submitted` event are written in one transaction. Any
// failure removes what this submission stored.
import { Clock, Effect, Exit, Option, Stream } from "effect"
import { BlobStore as BlobStoreTag } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import {
  FieldTooLong,
  StorageQuotaExceeded,
  SubmissionFieldUnknown,
  SubmissionFilesMisnamed,
  SubmissionTooManyFiles,
  SubmissionWithoutFiles,
  UploadRequestClosed,
  UploadRequestLocked,
  ResourceNotFound
} from "../errors.js"
import {
  type StagedFile,
  storeUploadedFile,
  type UploadBodyError,
  type UploadPart,
  UploadPolicy
} from "../files/upload.js"
import { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { SuspendedAccounts } from "../../identity/ports/suspended-accounts.js"
import { spendPasswordAttempt } from "../password-attempts.js"
import { ownerServesPublicly } from "../public-access.js"
import { PasswordHasher } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import { UploadRequests } from "../ports/upload-requests.js"
import { newResourceRecord, type ResourceRecord, resourceBlobPrefix } from "../resources/resource.js"
import { insertResource } from "../resources/use-cases.js"
import { type UploadRequestRecord, UPLOAD_TOKEN_PATTERN, uploadTokenHash } from "./upload-request.js"

/** Files one submission may hold. */
export const MAX_SUBMISSION_FILES = 20

const FIELD_MAX: Readonly<Record<string, number>> = { name: 100, message: 2000, password: 256 }

/** Why a request takes no files now, if it takes none. */
export const uploadRequestClosedReason = (
  r: UploadRequestRecord,
  now: Date
): UploadRequestClosed["reason"] | undefined =>
  r.revokedAt !== null
    ? "revoked"
    : r.status === "paused"
      ? "paused"
      : r.status === "completed"
        ? "completed"
        : r.expiresAt !== null && r.expiresAt <= now
          ? "expired"
          : undefined

/**
 * The request a token opens, taking files now; ResourceNotFound (also for a suspended account's
 * request, told apart from nothing) or UploadRequestClosed otherwise.
 */
export const openUploadRequest = (token: string) =>
  Effect.gen(function* () {
    const requests = yield* UploadRequests
    if (!UPLOAD_TOKEN_PATTERN.test(token)) return yield* new ResourceNotFound()
    const found = yield* requests.getByTokenHash(uploadTokenHash(token))
    if (Option.isNone(found)) return yield* new ResourceNotFound()
    if (!ownerServesPublicly(yield* SuspendedAccounts, found.value.tenantId))
      return yield* new ResourceNotFound()
    const reason = uploadRequestClosedReason(found.value, new Date(yield* Clock.currentTimeMillis))
    if (reason !== undefined) return yield* new UploadRequestClosed({ reason })
    return found.value
  })

/**
 * `POST /u/{token}`: a submission of files (part `files`, repeated), `name`, `message` and `password`,
 * from the client address `client` (whose password attempts on this request are budgeted).
 */
export const submitToUploadRequest = (
  token: string,
  parts: Stream.Stream<UploadPart, UploadBodyError>,
  client: string
) =>
  Effect.gen(function* () {
    const request = yield* openUploadRequest(token)
    const repo = yield* ResourceRepository
    const requests = yield* UploadRequests
    const ids = yield* IdGen
    const policy = yield* UploadPolicy
    const fields: Record<string, string> = {}
    const staged: Array<{ readonly id: string; readonly file: StagedFile }> = []
    const inserted: Array<string> = []
    let unlocked = request.passwordHash === null
    let landed = false

    const checkPassword = Effect.gen(function* () {
      if (unlocked || request.passwordHash === null) return
      const given = fields.password ?? ""
      yield* spendPasswordAttempt(
        yield* RateLimitStore,
        "upload_request",
        request.id,
        client,
        yield* Clock.currentTimeMillis
      )
      const ok =
        given !== "" &&
        (yield* Effect.flatMap(Effect.service(PasswordHasher), (h) =>
          h.verify(given, request.passwordHash ?? "")
        ))
      if (!ok) return yield* new UploadRequestLocked()
      unlocked = true
    })

    const run = Effect.gen(function* () {
      yield* Stream.runForEach(parts, (part) =>
        Effect.gen(function* () {
          if (part._tag === "Field") {
            const max = FIELD_MAX[part.name]
            if (max === undefined) return yield* new SubmissionFieldUnknown()
            if ([...part.value].length > max)
              return yield* new FieldTooLong({ field: part.name, maxChars: max })
            fields[part.name] = part.value
            return
          }
          if (part.name !== "files") return yield* new SubmissionFilesMisnamed()
          // A browser sends an empty, unnamed file part when no file was chosen.
          if ((part.fileName ?? "") === "") return yield* Stream.runDrain(part.content)
          yield* checkPassword
          if (staged.length >= MAX_SUBMISSION_FILES)
            return yield* new SubmissionTooManyFiles({ maxFiles: MAX_SUBMISSION_FILES })
          const used = yield* repo.storageUsed(request.tenantId)
          const room = policy.quotaBytes - used - staged.reduce((n, s) => n + s.file.size, 0)
          if (room <= 0) return yield* new StorageQuotaExceeded()
          const id = yield* ids.uuidV7
          const key = `${resourceBlobPrefix({ tenantId: request.tenantId, id })}${yield* ids.uuidV7}`
          const file = yield* storeUploadedFile(
            key,
            part.fileName,
            part.content,
            Math.min(policy.maxBytes, room),
            "files"
          )
          staged.push({ id, file })
        })
      )
      yield* checkPassword
      if (staged.length === 0) return yield* new SubmissionWithoutFiles()
      const at = new Date(yield* Clock.currentTimeMillis)
      for (const { id, file } of staged) {
        const { kind, ...stored } = file
        const recordAt = (slug: string): ResourceRecord =>
          newResourceRecord(
            {
              id,
              tenantId: request.tenantId,
              slug,
              title: stored.fileName,
              visibility: "private",
              labels: ["upload-request"],
              storedBytes: stored.size,
              at
            },
            { type: kind, data: stored }
          )
        yield* insertResource(recordAt, undefined, { quotaBytes: policy.quotaBytes })
        inserted.push(id)
      }
      const submissionId = yield* ids.uuidV7
      const name = (fields.name ?? "").trim()
      const message = (fields.message ?? "").trim()
      yield* Effect.uninterruptible(
        Effect.tap(
          requests.insertSubmission(
            {
              id: submissionId,
              tenantId: request.tenantId,
              requestId: request.id,
              submitterName: name === "" ? null : name,
              message: message === "" ? null : message,
              review: "unreviewed",
              fileResourceIds: inserted,
              createdAt: at,
              reviewedAt: null
            },
            {
              id: yield* ids.uuidV7,
              tenantId: request.tenantId,
              type: "upload_request.submitted",
              payload: { upload_request_id: request.id, submission_id: submissionId, files: inserted.length },
              createdAt: at
            }
          ),
          () =>
            Effect.sync(() => {
              landed = true
            })
        )
      )
      return { request, submissionId, files: inserted.length }
    })
    return yield* run.pipe(
      Effect.onExit((exit) =>
        Exit.isSuccess(exit) || landed
          ? Effect.void
          : Effect.ignore(
              Effect.forEach(
                staged,
                ({ id, file }) =>
                  Effect.andThen(
                    inserted.includes(id)
                      ? Effect.flatMap(Clock.currentTimeMillis, (ms) =>
                          repo.softDelete(request.tenantId, id, new Date(ms))
                        )
                      : Effect.succeed(false),
                    Effect.flatMap(Effect.service(BlobStoreTag), (blobs) => blobs.delete(file.blobKey))
                  ),
                { discard: true }
              )
            )
      )
    )
  })
