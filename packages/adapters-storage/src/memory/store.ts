// The in-memory tables every memory repository reads and writes: one store per storage layer build,
// so forms see their responses (list counts) and responses see each other (completion caps).
import type {
  BioSubmissionRecord,
  DeploymentRecord,
  JobRecord,
  SharingEventRecord,
  UploadRequestRecord,
  UploadSubmissionRecord,
  ApiKeyRecord,
  FormRecord,
  FormVersionRecord,
  IdempotentAnswer,
  MarkdownVersionRecord,
  WebhookAttemptRecord,
  WebhookEndpointRecord,
  NotionAssetRecord,
  NotionMirrorState,
  NotionPageRecord,
  RequestTally,
  ResourceRecord,
  ResponseFileRecord,
  ResponseRecord,
  TenantRecord,
  VisitRecord,
  AuditEventRecord,
  MembershipRecord,
  OAuthRecord,
  OneTimeTokenRecord,
  PasskeyRecord,
  SessionRecord,
  UserRecord
} from "@folio/domain"
import { Context, Layer } from "effect"

/** A form row as kept: a soft-deleted form stays in the table, hidden from every read, as in SQL. */
export interface StoredForm extends FormRecord {
  readonly deletedAt: Date | null
}

/** A resource row as kept: deleted ones stay, hidden from every read. */
export type StoredResource = ResourceRecord & { readonly deletedAt: Date | null }

/** An idempotency key as kept (answer null while its claim runs; no digest yet for a streamed body). */
export interface StoredIdempotencyKey {
  readonly tenantId: string
  readonly key: string
  readonly requestHash: string | null
  readonly token: string
  readonly answer: IdempotentAnswer | null
  readonly claimedAt: Date
  readonly expiresAt: Date
}

export interface MemoryTables {
  readonly tenants: Map<string, TenantRecord>
  readonly keys: Map<string, ApiKeyRecord>
  readonly forms: Map<string, StoredForm>
  readonly versions: Map<string, FormVersionRecord>
  readonly responses: Map<string, ResponseRecord>
  readonly responseFiles: Map<string, ResponseFileRecord>
  /** Rate-limit windows, keyed `bucket@windowStart`. */
  readonly counters: Map<string, number>
  readonly requests: Array<RequestTally>
  readonly resources: Map<string, StoredResource>
  readonly markdownVersions: Map<string, MarkdownVersionRecord & { readonly tenantId: string }>
  /** Keyed by tenant id (a UUID, fixed length) followed by the key. */
  readonly idempotencyKeys: Map<string, StoredIdempotencyKey>
  readonly bioSubmissions: Map<string, BioSubmissionRecord>
  readonly deployments: Map<string, DeploymentRecord>
  readonly uploadRequests: Map<string, UploadRequestRecord>
  readonly uploadSubmissions: Map<string, UploadSubmissionRecord>
  readonly sharingEvents: Array<SharingEventRecord>
  readonly jobs: Map<string, JobRecord>
  /** Raw visits and their daily rollups (memory/sharing/analytics.ts). */
  readonly analytics: AnalyticsTables
  /** Webhook endpoints, deliveries (in event order) and attempts (memory/sharing/webhooks.ts). */
  readonly webhooks: WebhookTables
  /** Notion mirror state, cached pages and assets (memory/sharing/notion-mirrors.ts). */
  readonly notion: NotionTables
  /** People: accounts, memberships, console sessions, passkeys, one-time links, the audit log. */
  readonly people: PeopleTables
}

export interface PeopleTables {
  readonly users: Map<string, UserRecord>
  /** Keyed `tenantId/userId`. */
  readonly memberships: Map<string, MembershipRecord>
  readonly sessions: Map<string, SessionRecord>
  readonly passkeys: Map<string, PasskeyRecord>
  readonly oneTimeTokens: Map<string, OneTimeTokenRecord>
  readonly auditEvents: Array<AuditEventRecord>
  /** The authorization server's records, keyed `model` NUL `id` (memory/identity/oauth-store.ts). */
  readonly oauthRecords: Map<string, StoredOAuthRecord>
}

/** An OAuth record as kept: with when it was first stored and, for a grant, last used. */
export interface StoredOAuthRecord {
  readonly record: OAuthRecord
  readonly createdAt: Date
  readonly lastUsedAt: Date | null
}

export interface MemoryDelivery {
  readonly id: string
  readonly endpointId: string
  readonly event: SharingEventRecord
  status: "pending" | "delivered" | "failed"
  attempts: number
  nextAttemptAt: Date
}

export interface WebhookTables {
  readonly endpoints: Map<string, WebhookEndpointRecord>
  readonly deliveries: Array<MemoryDelivery>
  readonly attempts: Array<WebhookAttemptRecord>
  /** Resources whose expiry was announced (cleared when their expires_at changes). */
  readonly expiryAnnounced: Set<string>
}

/** Analytics: raw visits in insertion order; rollups keyed `resourceId|day[|dimension|value]`. */
export interface AnalyticsTables {
  readonly visits: Array<VisitRecord & { readonly id: string }>
  readonly daily: Map<string, { views: number; botViews: number; visitors: number }>
  readonly values: Map<string, number>
  /** `resourceId|day|visitorHash` of the visitors already counted. */
  readonly visitors: Set<string>
}

/** Notion mirrors: state by resource id, pages keyed `resourceId/pageId`, assets by id. */
export interface NotionTables {
  readonly mirrors: Map<string, NotionMirrorState>
  readonly pages: Map<string, NotionPageRecord>
  readonly assets: Map<string, NotionAssetRecord>
}

export class MemoryStore extends Context.Service<MemoryStore, MemoryTables>()(
  "@folio/adapters-storage/MemoryStore"
) {}

/** Empty tables, fresh per build. */
export const MemoryStoreLive = Layer.sync(MemoryStore, () => ({
  tenants: new Map(),
  keys: new Map(),
  forms: new Map(),
  versions: new Map(),
  responses: new Map(),
  responseFiles: new Map(),
  counters: new Map(),
  requests: [],
  resources: new Map(),
  markdownVersions: new Map(),
  idempotencyKeys: new Map(),
  bioSubmissions: new Map(),
  deployments: new Map(),
  uploadRequests: new Map(),
  uploadSubmissions: new Map(),
  sharingEvents: [],
  jobs: new Map(),
  analytics: { visits: [], daily: new Map(), values: new Map(), visitors: new Set<string>() },
  webhooks: { endpoints: new Map(), deliveries: [], attempts: [], expiryAnnounced: new Set<string>() },
  notion: { mirrors: new Map(), pages: new Map(), assets: new Map() },
  people: {
    users: new Map(),
    memberships: new Map(),
    sessions: new Map(),
    passkeys: new Map(),
    oneTimeTokens: new Map(),
    auditEvents: [],
    oauthRecords: new Map()
  }
}))

/** Completed responses of a form: the forms list shows it, and response caps are checked against it. */
export const completedCount = (tables: MemoryTables, formId: string): number =>
  [...tables.responses.values()].filter((r) => r.formId === formId && r.status === "completed").length
