// Upload requests (sharing-api.md, Upload requests): private links through which people without an
// account send files. The secret token is shown once (at creation and after a rotation); only its
// SHA-256 is stored, so a lookup by token never needs the token itself. Statuses `open`, `paused`
// and `completed` can be set in any order; a revoked request is shut down for good.
import { Schema } from "effect"
import { sha256Hex } from "../../kernel/digest.js"
import { Rfc3339 } from "../links/rules.js"
import { ResourceDescription, ResourceTitle } from "../resources/rules.js"
import { ResourcePassword } from "../resources/wire.js"

export const UploadRequestStatus = Schema.Literals(["open", "paused", "completed"])
export type UploadRequestStatus = typeof UploadRequestStatus.Type

export const SubmissionReview = Schema.Literals(["unreviewed", "accepted", "needs_changes", "rejected"])
export type SubmissionReview = typeof SubmissionReview.Type

export interface UploadRequestRecord {
  /** UUID v7. */
  readonly id: string
  readonly tenantId: string
  readonly title: string
  readonly description: string | null
  /** SHA-256 (hex) of the secret token. */
  readonly tokenHash: string
  readonly passwordHash: string | null
  readonly expiresAt: Date | null
  readonly status: UploadRequestStatus
  /** Set once, for good: a revoked request takes nothing and cannot be reopened. */
  readonly revokedAt: Date | null
  readonly rowVersion: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface UploadSubmissionRecord {
  readonly id: string
  readonly tenantId: string
  readonly requestId: string
  readonly submitterName: string | null
  readonly message: string | null
  readonly review: SubmissionReview
  /** The file resources the submission created, in the order sent. */
  readonly fileResourceIds: ReadonlyArray<string>
  readonly createdAt: Date
  readonly reviewedAt: Date | null
}

/** The hash an upload request's token is stored and looked up by. */
export const uploadTokenHash = (token: string): string => sha256Hex(`upload-request-token:${token}`)

/** A token's text: 32 random bytes, base64url (43 characters). */
export const UPLOAD_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/

/** The public address of an upload request. */
export const uploadRequestUrl = (publicOrigin: string, token: string): string =>
  `${publicOrigin.replace(/\/+$/, "")}/u/${token}`

// ---- The wire ---------------------------------------------------------------------------------

export const CreateUploadRequestInput = Schema.Struct({
  title: ResourceTitle.check(Schema.isMinLength(1)),
  description: Schema.optionalKey(Schema.NullOr(ResourceDescription)),
  password: Schema.optionalKey(Schema.NullOr(ResourcePassword)),
  expires_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  status: Schema.optionalKey(UploadRequestStatus)
}).annotate({ identifier: "CreateUploadRequest" })
export type CreateUploadRequestInput = typeof CreateUploadRequestInput.Type

/** Only the fields sent change; an empty `password` or `expires_at` clears it (as does null). */
export const PatchUploadRequestInput = Schema.Struct({
  title: Schema.optionalKey(ResourceTitle.check(Schema.isMinLength(1))),
  description: Schema.optionalKey(Schema.NullOr(ResourceDescription)),
  password: Schema.optionalKey(Schema.NullOr(Schema.Union([Schema.Literal(""), ResourcePassword]))),
  expires_at: Schema.optionalKey(Schema.NullOr(Schema.Union([Schema.Literal(""), Rfc3339])))
}).annotate({ identifier: "PatchUploadRequest" })
export type PatchUploadRequestInput = typeof PatchUploadRequestInput.Type

export const UploadRequestView = Schema.Struct({
  id: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  status: UploadRequestStatus,
  revoked: Schema.Boolean,
  /** Whether the public page is open to senders now (open, not revoked, not expired). */
  accepting: Schema.Boolean,
  has_password: Schema.Boolean,
  expires_at: Schema.NullOr(Schema.String),
  created_at: Schema.String,
  updated_at: Schema.String
}).annotate({ identifier: "UploadRequest" })

export const uploadRequestView = (r: UploadRequestRecord, now: Date): typeof UploadRequestView.Type => ({
  id: r.id,
  title: r.title,
  description: r.description,
  status: r.status,
  revoked: r.revokedAt !== null,
  accepting: r.revokedAt === null && r.status === "open" && (r.expiresAt === null || r.expiresAt > now),
  has_password: r.passwordHash !== null,
  expires_at: r.expiresAt?.toISOString() ?? null,
  created_at: r.createdAt.toISOString(),
  updated_at: r.updatedAt.toISOString()
})

export const UploadSubmissionView = Schema.Struct({
  id: Schema.String,
  submitter_name: Schema.NullOr(Schema.String),
  message: Schema.NullOr(Schema.String),
  review: SubmissionReview,
  file_resource_ids: Schema.Array(Schema.String),
  created_at: Schema.String,
  reviewed_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "UploadSubmission" })

export const uploadSubmissionView = (s: UploadSubmissionRecord): typeof UploadSubmissionView.Type => ({
  id: s.id,
  submitter_name: s.submitterName,
  message: s.message,
  review: s.review,
  file_resource_ids: [...s.fileResourceIds],
  created_at: s.createdAt.toISOString(),
  reviewed_at: s.reviewedAt?.toISOString() ?? null
})
