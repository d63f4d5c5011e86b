// The sharing error table against the spec's: every code the spec lists with its status, and each
// domain failure answered in `{ error, error_code, field }`.
import { SharingErrors } from "@folio/adapters-http"
import { statusOf } from "@folio/adapters-http/shared"
import {
  AccountDisabled,
  ArtifactArchiveInvalid,
  ArtifactIndexMissing,
  ArtifactPathInvalid,
  ArtifactsDisabled,
  ArtifactTooLarge,
  ArtifactTooManyFiles,
  StorageQuotaExceeded,
  UnsupportedMedia,
  UploadTooLarge,
  IdempotencyKeyReused,
  InvalidField,
  ResourceChanged,
  ResourceNotFound,
  ResourceOfAnotherAccount,
  ResourceSlugInUse
} from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"

const SPEC: ReadonlyArray<[string, number]> = [
  ["invalid_api_key", 401],
  ["user_disabled", 403],
  ["insufficient_scope", 403],
  ["forbidden", 403],
  ["not_found", 404],
  ["slug_taken", 409],
  ["idempotency_conflict", 409],
  ["job_already_active", 409],
  ["quota_exceeded", 409],
  ["etag_mismatch", 412],
  ["payload_too_large", 413],
  ["rate_limited", 429],
  ["validation_failed", 400],
  ["request_body_invalid", 400],
  ["unsupported_media", 415],
  ["feature_disabled", 403],
  ["service_unavailable", 503],
  ["artifacts_disabled", 503],
  ["artifact_archive_invalid", 400],
  ["artifact_path_invalid", 400],
  ["artifact_index_missing", 400],
  ["artifact_too_large", 413],
  ["artifact_too_many_files", 413]
]

describe("sharing error table", () => {
  it.each(SPEC)("has %s at %i", (code, status) => {
    const spec = (SharingErrors.codes as Record<string, Parameters<typeof statusOf>[0]>)[code]
    expect(spec).toBeDefined()
    expect(statusOf(spec as Parameters<typeof statusOf>[0])).toBe(status)
  })

  it.each([
    [new ResourceNotFound(), 404, { error_code: "not_found" }],
    [new ResourceOfAnotherAccount(), 403, { error_code: "forbidden" }],
    [new ResourceSlugInUse(), 409, { error_code: "slug_taken", field: "slug" }],
    [new ResourceChanged(), 412, { error_code: "etag_mismatch" }],
    [new IdempotencyKeyReused(), 409, { error_code: "idempotency_conflict" }],
    [
      new InvalidField({ field: "target_url", reason: "must be an absolute http(s) URL" }),
      400,
      { error_code: "validation_failed", field: "target_url" }
    ],
    [new AccountDisabled(), 403, { error_code: "user_disabled" }],
    [new StorageQuotaExceeded(), 409, { error_code: "quota_exceeded" }],
    [new UploadTooLarge({ maxBytes: 10 }), 413, { error_code: "payload_too_large", field: "file" }],
    [
      new UnsupportedMedia({ field: "file", problem: "type_not_allowed" }),
      415,
      { error_code: "unsupported_media", field: "file" }
    ],
    [new ArtifactArchiveInvalid({ problem: "damaged" }), 400, { error_code: "artifact_archive_invalid" }],
    [new ArtifactPathInvalid({ problem: "paths_clash" }), 400, { error_code: "artifact_path_invalid" }],
    [new ArtifactIndexMissing({ problem: "no_html_page" }), 400, { error_code: "artifact_index_missing" }],
    [new ArtifactTooLarge({ over: "site", maxBytes: 10 }), 413, { error_code: "artifact_too_large" }],
    [new ArtifactTooManyFiles({ maxFiles: 500 }), 413, { error_code: "artifact_too_many_files" }],
    [new ArtifactsDisabled(), 503, { error_code: "artifacts_disabled" }]
  ] as const)("answers %s in the sharing envelope", async (error, status, expected) => {
    const response = await Effect.runPromise(SharingErrors.respond(error))
    expect(response.status).toBe(status)
    const body = JSON.parse(new TextDecoder().decode((response.body as { body: Uint8Array }).body)) as Record<
      string,
      unknown
    >
    expect(body).toEqual({ error: error.message, ...expected })
  })
})
