// The owner's upload request routes: create (token shown once), list, read, patch, status, rotate
// the token (the old link stops at once), revoke (for good), and the submissions (list, one with
// the files it created, review, which records `upload_request.reviewed`).
import { Clock, Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { toBase64Url } from "../../kernel/digest.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { LOST_RACE_TRIES, retryOnStale } from "../../kernel/retry.js"
import {
  ResourceChanged,
  ResourceNotFound,
  type SharingFieldRefusal,
  UploadRequestRevoked
} from "../errors.js"
import { hashPassword } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import { UploadRequests } from "../ports/upload-requests.js"
import type { ResourceRecord } from "../resources/resource.js"
import {
  type CreateUploadRequestInput,
  type PatchUploadRequestInput,
  type SubmissionReview,
  type UploadRequestRecord,
  type UploadRequestStatus,
  uploadTokenHash
} from "./upload-request.js"

const now = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const newToken = Effect.map(
  Effect.flatMap(Effect.service(IdGen), (ids) => ids.randomBytes(32)),
  toBase64Url
)

/** The caller's upload request. */
const owned = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const found = yield* requests.get(principal.tenant, id)
    if (Option.isNone(found)) return yield* new ResourceNotFound()
    return found.value
  })

/**
 * Writes `change(current)` with a CAS, re-reading after a lost race (none of these writes has a
 * precondition, so another writer's version never fails it). A revoked request takes no change.
 */
const write = (
  id: string,
  change: (current: UploadRequestRecord, at: Date) => Effect.Effect<UploadRequestRecord, SharingFieldRefusal>
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    return yield* retryOnStale(
      LOST_RACE_TRIES,
      () =>
        Effect.gen(function* () {
          const current = yield* owned(id)
          if (current.revokedAt !== null) return yield* new UploadRequestRevoked()
          const at = yield* now
          const changed = yield* change(current, at)
          const next = { ...changed, rowVersion: current.rowVersion + 1, updatedAt: at }
          return (yield* requests.update(principal.tenant, next)) === "updated"
            ? Option.some(next)
            : Option.none()
        }),
      () => new ResourceChanged()
    )
  })

/** `POST /upload-requests`: the request and its token (shown this once). */
export const createUploadRequest = (input: CreateUploadRequestInput) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const ids = yield* IdGen
    const token = yield* newToken
    const at = yield* now
    const record: UploadRequestRecord = {
      id: yield* ids.uuidV7,
      tenantId: principal.tenant,
      title: input.title,
      description: input.description ?? null,
      tokenHash: uploadTokenHash(token),
      passwordHash: yield* hashPassword(input.password),
      expiresAt:
        input.expires_at === undefined || input.expires_at === null ? null : new Date(input.expires_at),
      status: input.status ?? "open",
      revokedAt: null,
      rowVersion: 1,
      createdAt: at,
      updatedAt: at
    }
    yield* requests.insert(record)
    return { request: record, token }
  })

export const listUploadRequests = Effect.gen(function* () {
  const principal = yield* Principal
  const requests = yield* UploadRequests
  return yield* requests.list(principal.tenant)
})

export const getUploadRequest = (id: string) => owned(id)

/** `PATCH /upload-requests/{id}`: only the fields sent; an empty password or expiry clears it. */
export const patchUploadRequest = (id: string, patch: PatchUploadRequestInput) =>
  Effect.gen(function* () {
    const password =
      patch.password === undefined
        ? undefined
        : patch.password === null || patch.password === ""
          ? null
          : yield* hashPassword(patch.password)
    return yield* write(id, (current) =>
      Effect.succeed({
        ...current,
        title: patch.title ?? current.title,
        description: patch.description === undefined ? current.description : patch.description,
        passwordHash: password === undefined ? current.passwordHash : password,
        expiresAt:
          patch.expires_at === undefined
            ? current.expiresAt
            : patch.expires_at === null || patch.expires_at === ""
              ? null
              : new Date(patch.expires_at)
      })
    )
  })

/** `POST /upload-requests/{id}/status`. */
export const setUploadRequestStatus = (id: string, status: UploadRequestStatus) =>
  write(id, (current) => Effect.succeed({ ...current, status }))

/** `POST /upload-requests/{id}/rotate-token`: a new token (shown once); the old link stops at once. */
export const rotateUploadRequestToken = (id: string) =>
  Effect.gen(function* () {
    const token = yield* newToken
    const request = yield* write(id, (current) =>
      Effect.succeed({ ...current, tokenHash: uploadTokenHash(token) })
    )
    return { request, token }
  })

/**
 * `POST /upload-requests/{id}/revoke`: shut down for good (revoking twice is the same). One
 * unconditional statement, not a CAS: a revoke wins over any write racing it, which then finds the
 * request revoked.
 */
export const revokeUploadRequest = (id: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const revoked = yield* requests.revoke(principal.tenant, id, yield* now)
    if (Option.isNone(revoked)) return yield* new ResourceNotFound()
    return revoked.value
  })

export const listUploadSubmissions = (
  id: string,
  page: { readonly limit: number; readonly offset: number }
) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const request = yield* owned(id)
    return yield* requests.listSubmissions(principal.tenant, request.id, page)
  })

/** One submission and the file resources it created (those since deleted are left out). */
export const getUploadSubmission = (id: string, submissionId: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const resources = yield* ResourceRepository
    const request = yield* owned(id)
    const found = yield* requests.getSubmission(principal.tenant, request.id, submissionId)
    if (Option.isNone(found)) return yield* new ResourceNotFound()
    const files: Array<ResourceRecord> = []
    for (const fileId of found.value.fileResourceIds) {
      const file = yield* resources.get(principal.tenant, fileId)
      if (Option.isSome(file)) files.push(file.value)
    }
    return { submission: found.value, files }
  })

/** `PATCH /upload-requests/{id}/submissions/{submissionID}`: the review, recorded as an event when it changes. */
export const reviewUploadSubmission = (id: string, submissionId: string, review: SubmissionReview) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const requests = yield* UploadRequests
    const ids = yield* IdGen
    const request = yield* owned(id)
    const at = yield* now
    const reviewed = yield* requests.review(principal.tenant, request.id, submissionId, review, at, {
      id: yield* ids.uuidV7,
      tenantId: principal.tenant,
      type: "upload_request.reviewed",
      payload: { upload_request_id: request.id, submission_id: submissionId, review },
      createdAt: at
    })
    if (Option.isNone(reviewed)) return yield* new ResourceNotFound()
    return reviewed.value
  })
