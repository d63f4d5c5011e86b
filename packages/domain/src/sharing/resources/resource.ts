// A shared resource as stored: the fields every type shares (sharing-api.md, common creation fields)
// plus the type's own data, kept as one typed JSON value. The record is a union discriminated by
// `type`, so `if (r.type === "link") r.data.targetUrl` narrows. Link rules and variants are opaque
// here (`unknown`): their schemas live in `sharing/links/` and decode them where they are used.
import { Schema } from "effect"
import { sha256Hex } from "../../kernel/digest.js"

/** Every resource type; `file` and `image` are made by the upload route, the others from JSON. */
export const ResourceType = Schema.Literals([
  "link",
  "markdown",
  "collection",
  "notion",
  "bio",
  "file",
  "image",
  "artifact"
])
export type ResourceType = typeof ResourceType.Type

/** Set at creation, never changed (sharing-api.md). */
export const Visibility = Schema.Literals(["public", "unlisted", "private"])
export type Visibility = typeof Visibility.Type

const NullableString = Schema.NullOr(Schema.String)

/** `link`: where it goes, by rule, by variant, or by default. */
export const LinkData = Schema.Struct({
  targetUrl: Schema.String,
  /** The ordered rules as decoded by `sharing/links/` (null when none). */
  redirectRules: Schema.Unknown,
  /** The weighted A/B variants as decoded by `sharing/links/` (null when none). */
  testVariants: Schema.Unknown,
  fallbackUrl: NullableString,
  webhookClicks: Schema.Boolean,
  ogTitle: NullableString,
  ogDescription: NullableString,
  ogImageUrl: NullableString
})
export type LinkData = typeof LinkData.Type

/** `markdown`: the current source; earlier ones are markdown versions (ports/resources.ts). */
export const MarkdownData = Schema.Struct({ body: Schema.String })
export type MarkdownData = typeof MarkdownData.Type

/** One stored upload: where its bytes are, what they are (sniffed, never the client's word) and their size. */
export const StoredFile = Schema.Struct({
  /** The BlobStore key, under the resource's own prefix (resourceBlobPrefix). */
  blobKey: Schema.String,
  /** The name the uploader gave, cleaned (fileNameOf); shown and used for downloads. */
  fileName: Schema.String,
  /** Decided from the content against the allowed list (sharing/files/media-types.ts). */
  contentType: Schema.String,
  size: Schema.Int
})
export type StoredFile = typeof StoredFile.Type

/** `file` and `image`: one uploaded object. */
export const FileData = StoredFile
export type FileData = StoredFile

/** One item of a collection: a copy of a file or image resource's bytes, with its own name and caption. */
export const CollectionItem = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["file", "image"]),
  file: StoredFile,
  /** Shown instead of the file name; null shows the file name. */
  displayName: NullableString,
  caption: NullableString,
  /** The resource it was copied from (it may be gone since). */
  sourceResourceId: Schema.String,
  addedAt: Schema.String
})
export type CollectionItem = typeof CollectionItem.Type

export const CollectionData = Schema.Struct({
  layout: NullableString,
  /** A JSON object or null. */
  settings: Schema.Unknown,
  /** In display order; absent on collections made before items existed (read as none). */
  items: Schema.optionalKey(Schema.Array(CollectionItem)),
  /** Bumped by every item change: the collection ETag is made from it. */
  itemsRevision: Schema.optionalKey(Schema.Int)
})
export type CollectionData = typeof CollectionData.Type

export const NotionData = Schema.Struct({
  sourceUrl: Schema.String,
  rootPageId: NullableString,
  autoRefresh: Schema.Boolean,
  refreshIntervalSeconds: Schema.NullOr(Schema.Int)
})
export type NotionData = typeof NotionData.Type

export const BioData = Schema.Struct({
  theme: NullableString,
  /** A JSON object or null (display_name, headline, bio, ...). */
  settings: Schema.Unknown,
  rootPageSlug: NullableString,
  rootPageTitle: NullableString,
  avatar: Schema.optionalKey(Schema.NullOr(StoredFile)),
  cover: Schema.optionalKey(Schema.NullOr(StoredFile)),
  /** The pages and their blocks as `sharing/bio/bio.ts` reads them (absent: the root page, empty). */
  pages: Schema.optionalKey(Schema.Array(Schema.Unknown))
})
export type BioData = typeof BioData.Type

/** `artifact`: a static site; its files are in its deployments (sharing/artifacts/deployment.ts). */
export const ArtifactData = Schema.Struct({
  /** The current deployment: the share link redirects to its origin. */
  deploymentId: Schema.String,
  /** 1, 2, 3, ... per artifact. */
  deploymentNumber: Schema.Int,
  entryPath: Schema.String,
  fileCount: Schema.Int,
  /** Bytes of the current deployment's files. */
  siteBytes: Schema.Int
})
export type ArtifactData = typeof ArtifactData.Type

/** Each type's data. */
export interface ResourceDataByType {
  readonly link: LinkData
  readonly markdown: MarkdownData
  readonly collection: CollectionData
  readonly notion: NotionData
  readonly bio: BioData
  readonly file: FileData
  readonly image: FileData
  readonly artifact: ArtifactData
}

/** What every resource has, whatever its type. */
export interface ResourceCommon {
  /** UUID v7 (IdGen.uuidV7): lists in creation order page well on it. */
  readonly id: string
  readonly tenantId: string
  /** Public, unique among live resources of every tenant. */
  readonly slug: string
  readonly title: string | null
  readonly description: string | null
  readonly visibility: Visibility
  /** A slow hash (argon2 or scrypt, made by an adapter); the password itself is never stored. */
  readonly passwordHash: string | null
  readonly startsAt: Date | null
  readonly expiresAt: Date | null
  /** Normalized (normalizeLabels): no duplicates, at most MAX_RESOURCE_LABELS. */
  readonly labels: ReadonlyArray<string>
  readonly maxViews: number | null
  readonly archived: boolean
  readonly pinned: boolean
  /**
   * Views counted so far. Written only by the view counter (a later port): a resource update never
   * writes it and counting never bumps rowVersion, so a view does not make an owner's ETag stale.
   */
  readonly viewCount: number
  /**
   * Bytes of every blob the resource owns (an upload, collection copies, bio media): what it holds
   * of the account's storage quota, given back when it is deleted.
   */
  readonly storedBytes: number
  /** Bumped by every write of the owner (update, restore, delete); the ETag is made from it. */
  readonly rowVersion: number
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** One resource of type `T` (of a union of types: the union of each type's record). */
export type ResourceRecordOf<T extends ResourceType> = T extends ResourceType
  ? ResourceCommon & { readonly type: T; readonly data: ResourceDataByType[T] }
  : never

/** A live resource as stored (every read returns live resources only; deleted ones are hidden). */
export type ResourceRecord = ResourceRecordOf<ResourceType>

/** A type with its own data: the part of a record that varies with the type. */
export type ResourceTyped<T extends ResourceType = ResourceType> = T extends ResourceType
  ? { readonly type: T; readonly data: ResourceDataByType[T] }
  : never

/**
 * The one way to make a record: the fields every type shares, and a type with its data. Only `type`
 * and `data` are taken from `typed`, so a whole record or a stored row may be passed as it is; they
 * replace any `common` carries.
 */
export const makeResourceRecord = <T extends ResourceType>(
  common: ResourceCommon,
  typed: ResourceTyped<T>
): ResourceRecordOf<T> => {
  const { type, data } = typed
  // The copy loses the tie between a union's `type` and its `data` that `typed` guarantees.
  return { ...common, type, data } as ResourceRecordOf<T>
}

/** What a create decides about a new resource; `at` is both its creation and its last change. */
export type NewResourceFields = Pick<ResourceCommon, "id" | "tenantId" | "slug"> & {
  readonly at: Date
} & Partial<
    Pick<
      ResourceCommon,
      | "title"
      | "description"
      | "visibility"
      | "passwordHash"
      | "startsAt"
      | "expiresAt"
      | "labels"
      | "maxViews"
      | "archived"
      | "pinned"
      | "storedBytes"
    >
  >

/**
 * A resource as every create makes it: what the create decided, over the defaults of a new resource
 * (public, no password or window, unlabelled, nothing counted or stored yet, row version 1).
 */
export const newResourceRecord = <T extends ResourceType>(
  { at, ...decided }: NewResourceFields,
  typed: ResourceTyped<T>
): ResourceRecordOf<T> =>
  makeResourceRecord(
    {
      title: null,
      description: null,
      visibility: "public",
      passwordHash: null,
      startsAt: null,
      expiresAt: null,
      labels: [],
      maxViews: null,
      archived: false,
      pinned: false,
      storedBytes: 0,
      ...decided,
      viewCount: 0,
      rowVersion: 1,
      createdAt: at,
      updatedAt: at
    },
    typed
  )

/** Whether `resource` is of one of `types` (narrowing it to their records). */
export const isResourceOf = <T extends ResourceType>(
  resource: ResourceRecord,
  ...types: ReadonlyArray<T>
): resource is ResourceRecordOf<T> => types.some((t) => t === resource.type)

/**
 * A resource as lists return it: everything but a Markdown page's body, which can be large and which
 * no list shows (read the resource for it).
 */
export type ResourceListItem =
  | Exclude<ResourceRecord, { readonly type: "markdown" }>
  | (ResourceCommon & { readonly type: "markdown"; readonly data: Omit<MarkdownData, "body"> })

/**
 * The ETag of a resource's current state (X-Resource-ETag): opaque, changes with every write, and
 * differs between resources, so a resource re-created under a deleted one's slug never matches an
 * ETag of the old one. Compare it with the client's If-Match, then update with the CAS on rowVersion.
 */
export const resourceEtag = (resource: Pick<ResourceCommon, "id" | "rowVersion">): string =>
  sha256Hex(`resource:${resource.id}:${resource.rowVersion}`).slice(0, 32)

/**
 * The strong ETag of stored bytes (served with them, compared by `If-Range`). A blob key is written
 * once: new bytes always get a new key (an upload's or a mirror asset's UUID v7, an optimize job's
 * id, a collection item's id), so the key names the bytes and the tag changes exactly when they do.
 * Hashed, so the header shows neither the tenant nor the resource id the key holds.
 */
export const storedFileEtag = (file: Pick<StoredFile, "blobKey" | "size">): string =>
  `"${sha256Hex(`blob:${file.blobKey}:${file.size}`).slice(0, 32)}"`

/**
 * Whether an If-Match value names `etag`: its quotes and weak marker stripped (`"abc"`, `W/"abc"`;
 * the X- headers carry the bare ETag), any of a list, `*` matching any current state.
 */
export const ifMatchNames = (ifMatch: string, etag: string): boolean =>
  ifMatch
    .split(",")
    .map((t) =>
      t
        .trim()
        .replace(/^W\//, "")
        .replace(/^"(.*)"$/, "$1")
    )
    .some((t) => t === "*" || t === etag)

/** Every blob of a resource lives under this prefix, so deleting the resource deletes them all. */
export const resourceBlobPrefix = (resource: Pick<ResourceCommon, "tenantId" | "id">): string =>
  `sharing/${resource.tenantId}/${resource.id}/`
