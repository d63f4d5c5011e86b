// A bio (link-in-bio) page as stored and as the API shows it: a profile (display name, headline,
// bio, theme, avatar, cover) and pages of blocks (links, headings, text, images, files, a visitor
// form). `PATCH .../bio` replaces the profile and every page and block at once; media (avatar, cover,
// block files, thumbnails) arrive through their own upload routes and are kept by a PATCH that names
// their block. Every stored file lives under the resource's blob prefix and counts in its bytes.
import { Schema } from "effect"
import { DestinationUrl } from "../links/url.js"
import {
  type ResourceRecordOf,
  type StoredFile,
  StoredFile as StoredFileSchema
} from "../resources/resource.js"
import { ResourceSlug, ResourceTitle } from "../resources/rules.js"

export const MAX_BIO_PAGES = 20
export const MAX_BIO_BLOCKS = 100
export const MAX_FORM_FIELDS = 10

const NullableFile = Schema.NullOr(StoredFileSchema)

export const BioFormField = Schema.Struct({
  /** The key of the value in each submission (a-z, 0-9, _). */
  name: Schema.String.check(Schema.isPattern(/^[a-z][a-z0-9_]{0,39}$/)),
  label: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(100)),
  kind: Schema.Literals(["text", "email", "textarea"]),
  required: Schema.Boolean
})
export type BioFormField = typeof BioFormField.Type

/** A block as stored. */
export const BioBlock = Schema.Union([
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("link"),
    title: Schema.String,
    url: Schema.String,
    thumbnail: NullableFile
  }),
  Schema.Struct({ id: Schema.String, type: Schema.Literal("heading"), text: Schema.String }),
  Schema.Struct({ id: Schema.String, type: Schema.Literal("text"), text: Schema.String }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("image"),
    file: StoredFileSchema,
    caption: Schema.NullOr(Schema.String),
    thumbnail: NullableFile
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("file"),
    file: StoredFileSchema,
    title: Schema.NullOr(Schema.String),
    thumbnail: NullableFile
  }),
  Schema.Struct({
    id: Schema.String,
    type: Schema.Literal("form"),
    title: Schema.String,
    fields: Schema.Array(BioFormField),
    submitLabel: Schema.String
  })
])
export type BioBlock = typeof BioBlock.Type

export interface BioPage {
  readonly id: string
  readonly slug: string
  readonly title: string
  readonly blocks: ReadonlyArray<BioBlock>
}

export interface BioProfile {
  readonly displayName: string | null
  readonly headline: string | null
  readonly bio: string | null
  readonly avatar: StoredFile | null
  readonly cover: StoredFile | null
}

export type BioRecord = ResourceRecordOf<"bio">

const text = (value: unknown): string | null => (typeof value === "string" && value !== "" ? value : null)
const settingsOf = (r: BioRecord): Record<string, unknown> =>
  typeof r.data.settings === "object" && r.data.settings !== null && !Array.isArray(r.data.settings)
    ? (r.data.settings as Record<string, unknown>)
    : {}

/** The profile of a bio page (the text fields live in `settings`, as the create body sends them). */
export const bioProfileOf = (r: BioRecord): BioProfile => {
  const settings = settingsOf(r)
  return {
    displayName: text(settings.display_name),
    headline: text(settings.headline),
    bio: text(settings.bio),
    avatar: r.data.avatar ?? null,
    cover: r.data.cover ?? null
  }
}

/** The pages of a bio page; one made before pages existed has its root page, empty, with its own id. */
export const bioPagesOf = (r: BioRecord): ReadonlyArray<BioPage> =>
  (r.data.pages as ReadonlyArray<BioPage> | undefined) ?? [
    { id: r.id, slug: r.data.rootPageSlug ?? "home", title: r.data.rootPageTitle ?? "Home", blocks: [] }
  ]

/** Every file the bio page holds (avatar, cover, block files, thumbnails). */
export const bioFilesOf = (profile: BioProfile, pages: ReadonlyArray<BioPage>): ReadonlyArray<StoredFile> => {
  const files: Array<StoredFile> = []
  if (profile.avatar !== null) files.push(profile.avatar)
  if (profile.cover !== null) files.push(profile.cover)
  for (const page of pages)
    for (const block of page.blocks) {
      if ((block.type === "image" || block.type === "file") && block.file !== null) files.push(block.file)
      if ("thumbnail" in block && block.thumbnail !== null) files.push(block.thumbnail)
    }
  return files
}

/** The bio record with `profile` and `pages`: its stored bytes recounted, row version bumped. */
export const withBio = (
  r: BioRecord,
  profile: BioProfile,
  pages: ReadonlyArray<BioPage>,
  at: Date,
  theme?: string | null
): BioRecord => {
  const settings = {
    ...settingsOf(r),
    display_name: profile.displayName,
    headline: profile.headline,
    bio: profile.bio
  }
  return {
    ...r,
    data: {
      ...r.data,
      theme: theme === undefined ? r.data.theme : theme,
      settings,
      avatar: profile.avatar,
      cover: profile.cover,
      pages,
      rootPageSlug: pages[0]?.slug ?? null,
      rootPageTitle: pages[0]?.title ?? null
    },
    storedBytes: bioFilesOf(profile, pages).reduce((n, f) => n + f.size, 0),
    rowVersion: r.rowVersion + 1,
    updatedAt: at
  }
}

// ---- The PATCH body -------------------------------------------------------------------------

/** Page and block ids: letters, digits, `_` and `-` (they appear in URLs and element ids). */
const BlockId = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{1,64}$/))
const Text = (max: number) => Schema.String.check(Schema.isMaxLength(max))

export const BioBlockInput = Schema.Union([
  Schema.Struct({
    id: Schema.optionalKey(BlockId),
    type: Schema.Literal("link"),
    title: Text(300).check(Schema.isMinLength(1)),
    url: DestinationUrl
  }),
  Schema.Struct({
    id: Schema.optionalKey(BlockId),
    type: Schema.Literal("heading"),
    text: Text(300).check(Schema.isMinLength(1))
  }),
  Schema.Struct({
    id: Schema.optionalKey(BlockId),
    type: Schema.Literal("text"),
    text: Text(5000).check(Schema.isMinLength(1))
  }),
  /** An image block is made by uploading its file; a PATCH keeps it by naming its id. */
  Schema.Struct({
    id: BlockId,
    type: Schema.Literal("image"),
    caption: Schema.optionalKey(Schema.NullOr(Text(2000)))
  }),
  /** A file block is made by uploading its file; a PATCH keeps it by naming its id. */
  Schema.Struct({
    id: BlockId,
    type: Schema.Literal("file"),
    title: Schema.optionalKey(Schema.NullOr(Text(300)))
  }),
  Schema.Struct({
    id: Schema.optionalKey(BlockId),
    type: Schema.Literal("form"),
    title: Text(300).check(Schema.isMinLength(1)),
    fields: Schema.Array(BioFormField).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_FORM_FIELDS)),
    submit_label: Schema.optionalKey(Text(40).check(Schema.isMinLength(1)))
  })
]).annotate({ identifier: "BioBlockInput" })
export type BioBlockInput = typeof BioBlockInput.Type

export const BioPageInput = Schema.Struct({
  /** An existing page's id keeps it (its blocks' media stay with their ids); omitted: a new page. */
  id: Schema.optionalKey(BlockId),
  slug: ResourceSlug,
  title: ResourceTitle.check(Schema.isMinLength(1)),
  blocks: Schema.Array(BioBlockInput).check(Schema.isMaxLength(MAX_BIO_BLOCKS))
}).annotate({ identifier: "BioPageInput" })

/** `PATCH /resources/{slug}/bio`: the whole profile and every page; profile fields left out are cleared. */
export const ReplaceBioInput = Schema.Struct({
  display_name: Schema.optionalKey(Schema.NullOr(Text(100))),
  headline: Schema.optionalKey(Schema.NullOr(Text(200))),
  bio: Schema.optionalKey(Schema.NullOr(Text(2000))),
  theme: Schema.optionalKey(
    Schema.NullOr(Schema.Literals(["light", "dark", "sunset", "forest", "ocean", "mono"]))
  ),
  pages: Schema.Array(BioPageInput).check(Schema.isMinLength(1), Schema.isMaxLength(MAX_BIO_PAGES))
}).annotate({ identifier: "ReplaceBio" })
export type ReplaceBioInput = typeof ReplaceBioInput.Type

// ---- The view -------------------------------------------------------------------------------

export const BioMediaView = Schema.Struct({
  file_name: Schema.String,
  content_type: Schema.String,
  size: Schema.Int,
  /** The public address of the bytes. */
  url: Schema.String
}).annotate({ identifier: "BioMedia" })

const Media = Schema.NullOr(BioMediaView)

export const BioBlockView = Schema.Struct({
  id: Schema.String,
  type: Schema.Literals(["link", "heading", "text", "image", "file", "form"]),
  title: Schema.optionalKey(Schema.NullOr(Schema.String)),
  url: Schema.optionalKey(Schema.String),
  text: Schema.optionalKey(Schema.String),
  caption: Schema.optionalKey(Schema.NullOr(Schema.String)),
  file: Schema.optionalKey(BioMediaView),
  thumbnail: Schema.optionalKey(Media),
  fields: Schema.optionalKey(Schema.Array(BioFormField)),
  submit_label: Schema.optionalKey(Schema.String)
}).annotate({ identifier: "BioBlock" })

export const BioPageView = Schema.Struct({
  id: Schema.String,
  slug: Schema.String,
  title: Schema.String,
  blocks: Schema.Array(BioBlockView)
}).annotate({ identifier: "BioPage" })

/** The public address of a bio page's stored file (its key's last segment names it). */
export const bioMediaUrl = (resourceUrl: string, file: StoredFile): string =>
  `${resourceUrl}/media/${file.blobKey.split("/").pop() ?? ""}`

const storedMediaView = (resourceUrl: string, file: StoredFile) => ({
  file_name: file.fileName,
  content_type: file.contentType,
  size: file.size,
  url: bioMediaUrl(resourceUrl, file)
})

const mediaView = (resourceUrl: string, file: StoredFile | null) =>
  file === null ? null : storedMediaView(resourceUrl, file)

export const bioBlockView = (resourceUrl: string, block: BioBlock): typeof BioBlockView.Type => {
  switch (block.type) {
    case "link":
      return {
        id: block.id,
        type: "link",
        title: block.title,
        url: block.url,
        thumbnail: mediaView(resourceUrl, block.thumbnail)
      }
    case "heading":
    case "text":
      return { id: block.id, type: block.type, text: block.text }
    case "image":
    case "file": {
      const media = {
        file: storedMediaView(resourceUrl, block.file),
        thumbnail: mediaView(resourceUrl, block.thumbnail)
      }
      return block.type === "image"
        ? { id: block.id, type: "image", caption: block.caption, ...media }
        : { id: block.id, type: "file", title: block.title, ...media }
    }
    case "form":
      return {
        id: block.id,
        type: "form",
        title: block.title,
        fields: block.fields,
        submit_label: block.submitLabel
      }
  }
}

/** The bio fields of a bio resource's view. */
export const bioViewFields = (r: BioRecord, resourceUrl: string) => {
  const profile = bioProfileOf(r)
  return {
    display_name: profile.displayName,
    headline: profile.headline,
    bio: profile.bio,
    avatar: mediaView(resourceUrl, profile.avatar),
    cover: mediaView(resourceUrl, profile.cover),
    pages: bioPagesOf(r).map((p) => ({
      id: p.id,
      slug: p.slug,
      title: p.title,
      blocks: p.blocks.map((b) => bioBlockView(resourceUrl, b))
    }))
  }
}

/** The files a bio page holds that `next` no longer does (deleted once the write has landed). */
export const droppedFiles = (before: ReadonlyArray<StoredFile>, after: ReadonlyArray<StoredFile>) => {
  const kept = new Set(after.map((f) => f.blobKey))
  return before.filter((f) => !kept.has(f.blobKey))
}
