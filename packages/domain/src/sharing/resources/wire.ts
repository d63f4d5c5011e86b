// The resource as the sharing API reads and writes it, in snake_case (sharing-api.md, field
// tables): the create body (one shape per type), the PATCH body (every field optional), the view
// GET answers (everything editable plus `url`, `has_password` and the counters) and the routing
// fields the simulate routes take. The HTTP adapter decodes and encodes with these; the use cases
// (use-cases.ts) turn them into records.
import { Schema } from "effect"
import { BioMediaView, BioPageView, bioViewFields } from "../bio/bio.js"
import { CollectionItemView, collectionItemView } from "../collections/wire.js"
import { Rfc3339 } from "../links/rules.js"
import { DestinationUrl } from "../links/url.js"
import { RedirectRule, RedirectRules } from "../links/rules.js"
import { TestVariant, TestVariants } from "../links/variants.js"
import type { ResourceListItem, ResourceRecord } from "./resource.js"
import { ResourceType, Visibility } from "./resource.js"
import { ResourceDescription, ResourceLabels, ResourceSlug, ResourceTitle } from "./rules.js"

/** A password as sent (it is hashed at once and never stored or shown). */
export const ResourcePassword = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(256))

/** A view limit: a positive count a 32-bit column holds. */
export const MaxViews = Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 2_147_483_647 }))

const OgText = (max: number) => Schema.NullOr(Schema.String.check(Schema.isMaxLength(max)))
const ShortName = Schema.NullOr(Schema.String.check(Schema.isMaxLength(64)))
/** Free-form JSON settings of collections and bio pages (their routes give them shape later). */
const Settings = Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown))
/** A Markdown source; the 1 MiB JSON body cap bounds it. */
const MarkdownSource = Schema.String
const RefreshInterval = Schema.NullOr(Schema.Int.check(Schema.isBetween({ minimum: 60, maximum: 2_592_000 })))

/** Fields every type takes at creation. `visibility` defaults to `public`. */
const commonCreate = {
  slug: Schema.optionalKey(ResourceSlug),
  title: Schema.optionalKey(Schema.NullOr(ResourceTitle)),
  description: Schema.optionalKey(Schema.NullOr(ResourceDescription)),
  visibility: Schema.optionalKey(Visibility),
  password: Schema.optionalKey(Schema.NullOr(ResourcePassword)),
  starts_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  expires_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  labels: Schema.optionalKey(ResourceLabels),
  archived: Schema.optionalKey(Schema.Boolean),
  pinned: Schema.optionalKey(Schema.Boolean)
}

const linkFields = {
  redirect_rules: Schema.optionalKey(Schema.NullOr(RedirectRules)),
  test_variants: Schema.optionalKey(Schema.NullOr(TestVariants)),
  fallback_url: Schema.optionalKey(Schema.NullOr(DestinationUrl)),
  webhook_clicks: Schema.optionalKey(Schema.Boolean),
  og_title: Schema.optionalKey(OgText(300)),
  og_description: Schema.optionalKey(OgText(2000)),
  og_image_url: Schema.optionalKey(Schema.NullOr(DestinationUrl))
}

const markdownFields = {
  /** The source; `raw_markdown` is the same field under the spec's other name (send one). */
  body_markdown: Schema.optionalKey(MarkdownSource),
  raw_markdown: Schema.optionalKey(MarkdownSource)
}

const collectionFields = {
  layout: Schema.optionalKey(ShortName),
  settings: Schema.optionalKey(Settings)
}

const notionFields = {
  /** The page mirrored; `fetch_url` is the same field under the spec's other name (send one). */
  source_url: Schema.optionalKey(DestinationUrl),
  fetch_url: Schema.optionalKey(DestinationUrl),
  root_page_id: Schema.optionalKey(Schema.NullOr(Schema.String.check(Schema.isMaxLength(128)))),
  auto_refresh: Schema.optionalKey(Schema.Boolean),
  refresh_interval_seconds: Schema.optionalKey(RefreshInterval)
}

const bioFields = {
  theme: Schema.optionalKey(ShortName),
  /** display_name, headline, bio and whatever the bio routes add later. */
  settings: Schema.optionalKey(Settings),
  root_page_slug: Schema.optionalKey(Schema.NullOr(ResourceSlug)),
  root_page_title: Schema.optionalKey(Schema.NullOr(ResourceTitle))
}

export const CreateLinkInput = Schema.Struct({
  type: Schema.Literal("link"),
  ...commonCreate,
  target_url: DestinationUrl,
  max_views: Schema.optionalKey(Schema.NullOr(MaxViews)),
  ...linkFields
}).annotate({ identifier: "CreateLink" })

export const CreateMarkdownInput = Schema.Struct({
  type: Schema.Literal("markdown"),
  ...commonCreate,
  max_views: Schema.optionalKey(Schema.NullOr(MaxViews)),
  ...markdownFields
}).annotate({ identifier: "CreateMarkdown" })

export const CreateCollectionInput = Schema.Struct({
  type: Schema.Literal("collection"),
  ...commonCreate,
  ...collectionFields
}).annotate({ identifier: "CreateCollection" })

export const CreateNotionInput = Schema.Struct({
  type: Schema.Literal("notion"),
  ...commonCreate,
  ...notionFields
}).annotate({ identifier: "CreateNotion" })

export const CreateBioInput = Schema.Struct({
  type: Schema.Literal("bio"),
  ...commonCreate,
  ...bioFields
}).annotate({ identifier: "CreateBio" })

/** The body of `POST /resources`, one shape per type, told apart by `type`. */
export const CreateResourceInput = Schema.Union([
  CreateLinkInput,
  CreateMarkdownInput,
  CreateCollectionInput,
  CreateNotionInput,
  CreateBioInput
]).annotate({ identifier: "CreateResource" })
export type CreateResourceInput = typeof CreateResourceInput.Type

/**
 * The body of `PATCH /resources/{slug}`: every field optional, only those sent change; `null` clears
 * a clearable field. A field of another type than the resource's is refused (validation_failed with
 * that field), and so is a `visibility` other than the current one. `type` may be sent unchanged.
 */
export const PatchResourceInput = Schema.Struct({
  type: Schema.optionalKey(ResourceType),
  ...commonCreate,
  max_views: Schema.optionalKey(Schema.NullOr(MaxViews)),
  target_url: Schema.optionalKey(DestinationUrl),
  ...linkFields,
  ...markdownFields,
  layout: collectionFields.layout,
  settings: collectionFields.settings,
  ...notionFields,
  theme: bioFields.theme,
  root_page_slug: bioFields.root_page_slug,
  root_page_title: bioFields.root_page_title
}).annotate({ identifier: "PatchResource" })
export type PatchResourceInput = typeof PatchResourceInput.Type

/** Fields of the patch body that belong to one type only (the common ones are everyone's). */
export const TYPE_FIELDS: { readonly [T in ResourceType]: ReadonlyArray<keyof PatchResourceInput> } = {
  link: [
    "target_url",
    "max_views",
    "redirect_rules",
    "test_variants",
    "fallback_url",
    "webhook_clicks",
    "og_title",
    "og_description",
    "og_image_url"
  ],
  markdown: ["max_views", "body_markdown", "raw_markdown"],
  collection: ["layout", "settings"],
  notion: ["source_url", "fetch_url", "root_page_id", "auto_refresh", "refresh_interval_seconds"],
  bio: ["theme", "settings", "root_page_slug", "root_page_title"],
  file: ["max_views"],
  image: [],
  artifact: []
}

/**
 * The routing fields a simulate route dry-runs: the link's destinations and rules, plus what makes
 * it unavailable (window, view limit, and `views` counted so far). All optional here: the unsaved
 * route requires `target_url`, the saved route takes each omitted field from the stored link.
 */
export const linkSimulationFields = {
  target_url: Schema.optionalKey(DestinationUrl),
  redirect_rules: Schema.optionalKey(Schema.NullOr(RedirectRules)),
  test_variants: Schema.optionalKey(Schema.NullOr(TestVariants)),
  fallback_url: Schema.optionalKey(Schema.NullOr(DestinationUrl)),
  starts_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  expires_at: Schema.optionalKey(Schema.NullOr(Rfc3339)),
  max_views: Schema.optionalKey(Schema.NullOr(MaxViews)),
  views: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 2_147_483_647 })))
}
export const LinkSimulationFields = Schema.Struct(linkSimulationFields)
export type LinkSimulationFields = typeof LinkSimulationFields.Type

// ---- The view -------------------------------------------------------------------------------

const NullableString = Schema.NullOr(Schema.String)

const commonView = {
  id: Schema.String,
  slug: Schema.String,
  /** The public address: PUBLIC_ORIGIN + `/s/{slug}`. */
  url: Schema.String,
  title: NullableString,
  description: NullableString,
  visibility: Visibility,
  /** Whether a password guards the public page (the password itself is never shown). */
  has_password: Schema.Boolean,
  starts_at: NullableString,
  expires_at: NullableString,
  labels: Schema.Array(Schema.String),
  archived: Schema.Boolean,
  pinned: Schema.Boolean,
  view_count: Schema.Int,
  created_at: Schema.String,
  updated_at: Schema.String
}

export const LinkView = Schema.Struct({
  type: Schema.Literal("link"),
  ...commonView,
  target_url: Schema.String,
  max_views: Schema.NullOr(Schema.Int),
  redirect_rules: Schema.Array(RedirectRule),
  test_variants: Schema.Array(TestVariant),
  fallback_url: NullableString,
  webhook_clicks: Schema.Boolean,
  og_title: NullableString,
  og_description: NullableString,
  og_image_url: NullableString
}).annotate({ identifier: "LinkResource" })

export const MarkdownView = Schema.Struct({
  type: Schema.Literal("markdown"),
  ...commonView,
  max_views: Schema.NullOr(Schema.Int),
  /** The current source; lists leave it out (read the resource for it). */
  body_markdown: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "MarkdownResource" })

export const CollectionView = Schema.Struct({
  type: Schema.Literal("collection"),
  ...commonView,
  layout: NullableString,
  settings: Settings,
  /** In display order; change them through the collection routes (X-Collection-ETag). */
  items: Schema.Array(CollectionItemView)
}).annotate({ identifier: "CollectionResource" })

export const NotionView = Schema.Struct({
  type: Schema.Literal("notion"),
  ...commonView,
  source_url: Schema.String,
  root_page_id: NullableString,
  auto_refresh: Schema.Boolean,
  refresh_interval_seconds: Schema.NullOr(Schema.Int)
}).annotate({ identifier: "NotionResource" })

export const BioView = Schema.Struct({
  type: Schema.Literal("bio"),
  ...commonView,
  theme: NullableString,
  settings: Settings,
  root_page_slug: NullableString,
  root_page_title: NullableString,
  display_name: NullableString,
  headline: NullableString,
  bio: NullableString,
  avatar: Schema.NullOr(BioMediaView),
  cover: Schema.NullOr(BioMediaView),
  /** Replace them all with `PATCH .../bio`; media through the bio upload routes. */
  pages: Schema.Array(BioPageView)
}).annotate({ identifier: "BioResource" })

const storedFileView = {
  /** The uploader's file name (cleaned). */
  file_name: Schema.String,
  /** Decided from the content, not from what the client said. */
  content_type: Schema.String,
  /** Bytes. */
  size: Schema.Int
}

export const FileView = Schema.Struct({
  type: Schema.Literal("file"),
  ...commonView,
  ...storedFileView,
  max_views: Schema.NullOr(Schema.Int),
  /** The public download address (the same rules as `url`: password, window, view limit). */
  download_url: Schema.String
}).annotate({ identifier: "FileResource" })

export const ImageView = Schema.Struct({
  type: Schema.Literal("image"),
  ...commonView,
  ...storedFileView,
  download_url: Schema.String
}).annotate({ identifier: "ImageResource" })

export const ArtifactView = Schema.Struct({
  type: Schema.Literal("artifact"),
  ...commonView,
  /** The current deployment (send it as `base_deployment_id` to patch it). */
  deployment_id: Schema.String,
  deployment_number: Schema.Int,
  /** The current deployment's own origin (`url` always redirects to the latest). */
  deployment_url: Schema.String,
  entry_path: Schema.String,
  file_count: Schema.Int,
  site_bytes: Schema.Int
}).annotate({ identifier: "ArtifactResource" })

/** A resource as GET, create and PATCH answer it (and, without a Markdown body, as lists do). */
export const ResourceView = Schema.Union([
  LinkView,
  MarkdownView,
  CollectionView,
  NotionView,
  BioView,
  FileView,
  ImageView,
  ArtifactView
]).annotate({
  identifier: "Resource"
})
export type ResourceView = typeof ResourceView.Type

/** The public address of a slug. */
export const publicResourceUrl = (publicOrigin: string, slug: string): string =>
  `${publicOrigin.replace(/\/+$/, "")}/s/${encodeURIComponent(slug)}`

/** The public download address of a file or image resource. */
export const publicDownloadUrl = (publicOrigin: string, slug: string): string =>
  `${publicResourceUrl(publicOrigin, slug)}/download`

const iso = (d: Date | null) => (d === null ? null : d.toISOString())
const arrayOr = <A>(value: unknown): ReadonlyArray<A> => (Array.isArray(value) ? (value as Array<A>) : [])
const objectOr = (value: unknown): { readonly [k: string]: unknown } | null =>
  typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as { readonly [k: string]: unknown })
    : null

/**
 * The origin of one artifact deployment: its id as a host label under `artifactHost`, with the
 * public origin's scheme and port (`http://{id}.localhost:8080` by default).
 */
export const deploymentOrigin = (
  publicOrigin: string,
  artifactHost: string,
  deploymentId: string
): string => {
  const m = /^(https?):\/\/[^/:]+(:\d+)?/i.exec(publicOrigin)
  return `${m?.[1] ?? "http"}://${deploymentId}.${artifactHost}${m?.[2] ?? ""}`
}

/** The view of a record (or a list item, which has no Markdown body). */
export const resourceView = (
  r: ResourceRecord | ResourceListItem,
  publicOrigin: string,
  artifactHost = "localhost"
): ResourceView => {
  const common = {
    id: r.id,
    slug: r.slug,
    url: publicResourceUrl(publicOrigin, r.slug),
    title: r.title,
    description: r.description,
    visibility: r.visibility,
    has_password: r.passwordHash !== null,
    starts_at: iso(r.startsAt),
    expires_at: iso(r.expiresAt),
    labels: [...r.labels],
    archived: r.archived,
    pinned: r.pinned,
    view_count: r.viewCount,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString()
  }
  switch (r.type) {
    case "link":
      return {
        type: "link",
        ...common,
        target_url: r.data.targetUrl,
        max_views: r.maxViews,
        redirect_rules: arrayOr(r.data.redirectRules),
        test_variants: arrayOr(r.data.testVariants),
        fallback_url: r.data.fallbackUrl,
        webhook_clicks: r.data.webhookClicks,
        og_title: r.data.ogTitle,
        og_description: r.data.ogDescription,
        og_image_url: r.data.ogImageUrl
      }
    case "markdown":
      return {
        type: "markdown",
        ...common,
        max_views: r.maxViews,
        ...("body" in r.data ? { body_markdown: r.data.body } : {})
      }
    case "collection":
      return {
        type: "collection",
        ...common,
        layout: r.data.layout,
        settings: objectOr(r.data.settings),
        items: (r.data.items ?? []).map((item) => collectionItemView(item, common.url))
      }
    case "notion":
      return {
        type: "notion",
        ...common,
        source_url: r.data.sourceUrl,
        root_page_id: r.data.rootPageId,
        auto_refresh: r.data.autoRefresh,
        refresh_interval_seconds: r.data.refreshIntervalSeconds
      }
    case "bio":
      return {
        type: "bio",
        ...common,
        theme: r.data.theme,
        settings: objectOr(r.data.settings),
        root_page_slug: r.data.rootPageSlug,
        root_page_title: r.data.rootPageTitle,
        ...bioViewFields(r, common.url)
      }
    case "file":
      return {
        type: "file",
        ...common,
        file_name: r.data.fileName,
        content_type: r.data.contentType,
        size: r.data.size,
        max_views: r.maxViews,
        download_url: publicDownloadUrl(publicOrigin, r.slug)
      }
    case "image":
      return {
        type: "image",
        ...common,
        file_name: r.data.fileName,
        content_type: r.data.contentType,
        size: r.data.size,
        download_url: publicDownloadUrl(publicOrigin, r.slug)
      }
    case "artifact":
      return {
        type: "artifact",
        ...common,
        deployment_id: r.data.deploymentId,
        deployment_number: r.data.deploymentNumber,
        deployment_url: deploymentOrigin(publicOrigin, artifactHost, r.data.deploymentId),
        entry_path: r.data.entryPath,
        file_count: r.data.fileCount,
        site_bytes: r.data.siteBytes
      }
  }
}
