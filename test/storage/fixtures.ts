// Record builders for the storage contract suites.
import { randomFillSync } from "node:crypto"
import {
  type FormRecord,
  FormRepository,
  type FormVersionRecord,
  type ResourceDataByType,
  type ResourceRecord,
  type ResourceRecordOf,
  type ResourceType,
  type ResponseRecord,
  type TenantRecord,
  uuidV7FromParts
} from "@folio/domain"
import { Effect } from "effect"

const hex = (n: number) =>
  Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join("")

export const uuid = (): string => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`

export const at = (iso: string): Date => new Date(iso)

/** A UUID v7 of the instant `ms`: ids of later instants sort after it, as newest-first lists rely on. */
export const uuidV7 = (ms: number): string => uuidV7FromParts(ms, randomFillSync(new Uint8Array(16)))

export const workspace = (name = "Acme"): TenantRecord => ({
  id: uuid(),
  name,
  features: {},
  createdAt: at("2026-01-01T00:00:00.000Z"),
  disabledAt: null,
  memberKeyScopes: {}
})

export const form = (workspaceId: string, overrides: Partial<FormRecord> = {}): FormRecord => ({
  id: uuid(),
  workspaceId,
  kind: "classic",
  title: "Customer survey",
  slug: `s-${hex(12)}`,
  status: "draft",
  draftRevision: 1,
  draftDefinition: { schemaVersion: 1, blocks: [] },
  settings: { locale: "en" },
  settingsSignature: `sha256:${"a".repeat(64)}`,
  currentVersionId: null,
  versionCount: 0,
  rowVersion: 1,
  createdAt: at("2026-02-01T10:00:00.000Z"),
  updatedAt: at("2026-02-01T10:00:00.000Z"),
  ...overrides
})

/** The next state of `f` as a domain transition would produce it (row version bumped). */
export const next = (f: FormRecord, changes: Partial<FormRecord>): FormRecord => ({
  ...f,
  ...changes,
  rowVersion: f.rowVersion + 1
})

export const publication = (f: FormRecord, publishedAt = at("2026-02-02T00:00:00.000Z")) => {
  const version: FormVersionRecord = {
    id: uuid(),
    formId: f.id,
    workspaceId: f.workspaceId,
    kind: f.kind,
    version: f.versionCount + 1,
    definition: f.draftDefinition,
    publishedAt
  }
  const published = next(f, {
    status: "published",
    currentVersionId: version.id,
    versionCount: version.version,
    updatedAt: publishedAt
  })
  return { version, published }
}

export const response = (
  f: FormRecord,
  formVersionId: string,
  overrides: Partial<ResponseRecord> = {}
): ResponseRecord => ({
  id: uuid(),
  workspaceId: f.workspaceId,
  formId: f.id,
  formVersionId,
  status: "completed",
  answers: { blk_aaaaaaaa: "hello" },
  meta: {},
  createdAt: at("2026-03-01T00:00:00.000Z"),
  updatedAt: at("2026-03-01T00:00:00.000Z"),
  completedAt: at("2026-03-01T00:00:00.000Z"),
  version: 1,
  ...overrides
})

/** A resource of `type` with that type's data (a link unless told), live and never written. */
export const resource = <T extends ResourceType = "link">(
  tenantId: string,
  type: T = "link" as T,
  overrides: Partial<Omit<ResourceRecordOf<T>, "type">> = {}
): ResourceRecordOf<T> =>
  ({
    id: uuid(),
    tenantId,
    type,
    slug: `r-${hex(12)}`,
    title: "Launch notes",
    description: null,
    visibility: "public",
    passwordHash: null,
    startsAt: null,
    expiresAt: null,
    labels: [],
    maxViews: null,
    archived: false,
    pinned: false,
    viewCount: 0,
    storedBytes: 0,
    data: RESOURCE_DATA[type],
    rowVersion: 1,
    createdAt: at("2026-04-01T10:00:00.000Z"),
    updatedAt: at("2026-04-01T10:00:00.000Z"),
    ...overrides
  }) as unknown as ResourceRecordOf<T>

/** One example of each type's data, every field set. */
export const RESOURCE_DATA: { readonly [T in ResourceType]: ResourceDataByType[T] } = {
  link: {
    targetUrl: "https://example.com/launch",
    redirectRules: [{ when: { device: ["mobile"] }, target_url: "https://m.example.com/" }],
    testVariants: [
      { url: "https://a.example.com/", weight: 1 },
      { url: "https://b.example.com/", weight: 3 }
    ],
    fallbackUrl: "https://example.com/gone",
    webhookClicks: true,
    ogTitle: "Launch",
    ogDescription: "What ships",
    ogImageUrl: "https://example.com/og.png"
  },
  markdown: { body: "# Notes\n\nFirst draft." },
  collection: { layout: "grid", settings: { columns: 3 } },
  notion: {
    sourceUrl: "https://www.notion.so/acme/Handbook-0123456789abcdef0123456789abcdef",
    rootPageId: "0123456789abcdef0123456789abcdef",
    autoRefresh: true,
    refreshIntervalSeconds: 3600
  },
  bio: {
    theme: "dusk",
    settings: { display_name: "Ada", headline: "Engineer", bio: "Builds things" },
    rootPageSlug: "home",
    rootPageTitle: "Home"
  },
  file: { blobKey: "sharing/t/r/blob", fileName: "report.pdf", contentType: "application/pdf", size: 1234 },
  image: { blobKey: "sharing/t/r/image", fileName: "photo.png", contentType: "image/png", size: 4321 },
  artifact: {
    deploymentId: "9b2c7f3e-8a41-4d5e-b6c7-0d1e2f3a4b5c",
    deploymentNumber: 1,
    entryPath: "index.html",
    fileCount: 3,
    siteBytes: 2048
  }
}

/** The next state of `r` as an update computes it (row version bumped). */
export const nextResource = <R extends ResourceRecord>(r: R, changes: Partial<R>): R => ({
  ...r,
  ...changes,
  rowVersion: r.rowVersion + 1
})

/** Forms stored through `run`: a draft inserted, and a form published (its version row with it). */
export const storedForms = (run: <A, E>(effect: Effect.Effect<A, E, FormRepository>) => Promise<A>) => ({
  insertForm: async (workspaceId: string, overrides: Partial<FormRecord> = {}) => {
    const f = form(workspaceId, overrides)
    await run(FormRepository.pipe(Effect.flatMap((r) => r.insert(f))))
    return f
  },
  publish: async (f: FormRecord, publishedAt?: Date) => {
    const { version, published } = publication(f, publishedAt)
    await run(FormRepository.pipe(Effect.flatMap((r) => r.save(published, version))))
    return { version, published }
  }
})
