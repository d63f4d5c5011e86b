// The authoring tools: create and update resources (links with rules and variants, Markdown pages,
// collections, bio pages), dry-run a link, Markdown versions and restore, collection items, bio
// pages and their form submissions, and managing (archive, pin, labels, delete); over the use cases
// the REST handlers call, with REST's wire shapes.
import {
  AddCollectionItemInput,
  ArrangeCollectionInput,
  CollectionItemView,
  collectionItemView,
  CountryCode,
  CreateResourceInput,
  DeviceType,
  LinkDestination,
  linkSimulationFields,
  OsFamily,
  PatchResourceInput,
  publicResourceUrl,
  ReplaceBioInput,
  ResourceLabels,
  Rfc3339,
  SharingBio,
  SharingCollections,
  SharingResources,
  Uuid,
  type Visit
} from "@folio/domain"
import { Clock, Effect, Schema } from "effect"
import { sharingTool } from "../tool.js"
import { ExpectedEtag, need, ResourceWithEtag, Slug, withEtag } from "./shared.js"
import { resourceEtag as resourceEtagOf } from "@folio/domain"

// sharing_create -------------------------------------------------------------------------------

const CreateInput = Schema.Struct({
  resource: CreateResourceInput.annotate({
    description:
      "the new resource, as POST /resources takes it: type link (target_url; redirect_rules, test_variants, fallback_url, og_*), markdown (body_markdown), collection, notion or bio, with slug, title, description, visibility, password, starts_at, expires_at, labels, archived, pinned"
  })
})

const sharingCreate = sharingTool({
  name: "sharing_create",
  title: "Create a resource",
  description:
    "Create a link, Markdown page, collection, Notion mirror or bio page, exactly as POST /resources (scope write; links count against the key's or grant's hourly link budget, see svc://account/context limits). A link takes target_url and optionally redirect_rules (first match wins: country, language, device, os, query, time conditions), test_variants (weighted A/B destinations, sticky per visitor) and fallback_url; try them first with sharing_link_simulate. Returns the resource with its public url and etag. Files and images are uploaded with the file tools.",
  operations: ["resources.create"],
  operationsOf: () => ["resources.create"],
  input: CreateInput,
  output: ResourceWithEtag,
  run: (input, context) =>
    Effect.map(
      SharingResources.use((r) => r.create(input.resource)),
      (record) => withEtag(record, context.publicOrigin)
    )
})

// sharing_update -------------------------------------------------------------------------------

const UpdateInput = Schema.Struct({
  slug: Slug,
  changes: PatchResourceInput.annotate({
    description:
      "only the fields to change, as PATCH /resources/{slug} takes them (null clears a clearable field); a link's redirect_rules and test_variants are replaced whole; a Markdown body change keeps the old body as a version; type and visibility cannot change"
  }),
  expected_etag: Schema.optionalKey(ExpectedEtag)
})

const sharingUpdate = sharingTool({
  name: "sharing_update",
  title: "Update a resource",
  description:
    "Change fields of a resource, exactly as PATCH /resources/{slug} (scope write): a link's target, rules, variants, fallback and preview; a Markdown page's body (the previous body is kept as a version); a collection's layout or a bio page's theme; and the common fields (slug, title, description, password, window, labels, archived, pinned). Send expected_etag from your last read to avoid overwriting someone else's change; on etag_mismatch, read again with sharing_query action=get and re-apply.",
  operations: ["resources.update"],
  operationsOf: () => ["resources.update"],
  input: UpdateInput,
  output: ResourceWithEtag,
  run: (input, context) =>
    Effect.map(
      SharingResources.use((r) => r.update(input.slug, input.changes, input.expected_etag)),
      (record) => withEtag(record, context.publicOrigin)
    )
})

// sharing_link_simulate ------------------------------------------------------------------------

const MAX_QUERY_PARAMS = 100
const QueryValue = Schema.String.check(Schema.isMaxLength(2048))

/** The visit a simulation dry-runs, described by what the rules read (no user agent parsing here). */
const SimulatedVisit = Schema.Struct({
  device: Schema.optionalKey(DeviceType),
  os: Schema.optionalKey(OsFamily),
  languages: Schema.optionalKey(
    Schema.Array(Schema.String.check(Schema.isPattern(/^[a-z]{2,3}$/u))).check(Schema.isMaxLength(20))
  ).annotate({ description: 'primary language subtags, most preferred first (e.g. ["fr", "en"])' }),
  country: Schema.optionalKey(Schema.NullOr(CountryCode)),
  query: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Union([QueryValue, Schema.Array(QueryValue).check(Schema.isMaxLength(MAX_QUERY_PARAMS))])
    ).check(Schema.isMaxProperties(MAX_QUERY_PARAMS))
  ).annotate({ description: "the visit's query string as an object (a repeated parameter as an array)" }),
  time: Schema.optionalKey(Rfc3339).annotate({ description: "when (default now)" }),
  visitor_id: Schema.optionalKey(
    Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(128))
  ).annotate({
    description: "who (decides the sticky test variant; one fixed visitor by default)"
  })
})

const SimulateInput = Schema.Struct({
  slug: Schema.optionalKey(Slug).annotate({
    description:
      "a saved link to dry-run (the fields given override its stored ones); omit to dry-run an unsaved link (target_url required)"
  }),
  ...linkSimulationFields,
  visit: Schema.optionalKey(SimulatedVisit)
})

/** The visitor a simulation stands for when none is named: one fixed id, so a dry run repeats (as REST). */
const SIMULATION_VISITOR_ID = "simulation"

const sharingLinkSimulate = sharingTool({
  name: "sharing_link_simulate",
  title: "Dry-run a link",
  description:
    "Where would this visit go? Evaluates a link's redirect_rules, test_variants, fallback_url, window (starts_at, expires_at) and view limit for one described visit (device, os, languages, country, query, time, visitor_id), and returns the destination and what matched (a rule, a variant, the target, or why it is unavailable). With slug: a saved link, with any fields given overriding the stored ones. Nothing is saved or counted (scope read).",
  operations: ["resources.simulateLink", "resources.simulateSavedLink"],
  operationsOf: (input) =>
    input.slug === undefined ? ["resources.simulateLink"] : ["resources.simulateSavedLink"],
  input: SimulateInput,
  output: LinkDestination,
  run: (input) =>
    Effect.gen(function* () {
      const resources = yield* SharingResources
      const { slug, visit: described, ...fields } = input
      const now = new Date(yield* Clock.currentTimeMillis)
      const query: Array<readonly [string, string]> = []
      for (const [name, value] of Object.entries(described?.query ?? {}))
        for (const v of typeof value === "string" ? [value] : value) query.push([name, v])
      const country = described?.country ?? undefined
      const visit: Visit = {
        device: described?.device ?? "other",
        os: described?.os ?? "other",
        languages: described?.languages ?? [],
        ...(country === undefined ? {} : { country }),
        query,
        at: described?.time === undefined ? now : new Date(described.time),
        visitor_id: described?.visitor_id ?? SIMULATION_VISITOR_ID
      }
      return slug === undefined
        ? yield* resources.simulateLink(fields, visit)
        : yield* resources.simulateSavedLink(slug, fields, visit)
    })
})

// sharing_markdown_versions --------------------------------------------------------------------

const VersionSummary = Schema.Struct({
  id: Schema.String,
  number: Schema.Int,
  size: Schema.Int,
  created_at: Schema.String
})

const versionSummary = (v: {
  readonly id: string
  readonly number: number
  readonly size: number
  readonly createdAt: Date
}) => ({ id: v.id, number: v.number, size: v.size, created_at: v.createdAt.toISOString() })

const VersionsInput = Schema.Struct({
  action: Schema.Literals(["list", "get", "restore"]).annotate({
    description:
      "list: the page's earlier versions, newest first; get: one version's body (version_id); restore: make a version the current body (version_id; the body it replaces is saved as a new version, so a restore can be undone)"
  }),
  slug: Slug,
  version_id: Schema.optionalKey(Uuid),
  expected_etag: Schema.optionalKey(ExpectedEtag)
})

const VersionsOutput = Schema.Struct({
  action: Schema.Literals(["list", "get", "restore"]),
  versions: Schema.optionalKey(Schema.Array(VersionSummary)),
  version: Schema.optionalKey(Schema.Struct({ ...VersionSummary.fields, body_markdown: Schema.String })),
  restored: Schema.optionalKey(ResourceWithEtag),
  saved_version: Schema.optionalKey(VersionSummary)
})

const sharingMarkdownVersions = sharingTool({
  name: "sharing_markdown_versions",
  title: "Markdown page versions",
  description:
    "The earlier bodies of a Markdown page (each body change keeps the previous one; the newest 50 are kept). action=list lists them, action=get reads one version's body, action=restore makes one the current body (scope write; the replaced body becomes a new version, so restoring that undoes it; expected_etag as for sharing_update).",
  operations: [
    "resources.listMarkdownVersions",
    "resources.getMarkdownVersion",
    "resources.restoreMarkdownVersion"
  ],
  operationsOf: (input) =>
    input.action === "list"
      ? ["resources.listMarkdownVersions"]
      : input.action === "get"
        ? ["resources.getMarkdownVersion"]
        : ["resources.restoreMarkdownVersion"],
  input: VersionsInput,
  output: VersionsOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const resources = yield* SharingResources
      switch (input.action) {
        case "list":
          return {
            action: input.action,
            versions: (yield* resources.listMarkdownVersions(input.slug)).map(versionSummary)
          }
        case "get": {
          yield* need(input, input.action, ["version_id"])
          const version = yield* resources.getMarkdownVersion(input.slug, input.version_id ?? "")
          return {
            action: input.action,
            version: { ...versionSummary(version), body_markdown: version.body }
          }
        }
        case "restore": {
          yield* need(input, input.action, ["version_id"])
          const restored = yield* resources.restoreMarkdownVersion(
            input.slug,
            input.version_id ?? "",
            input.expected_etag
          )
          return {
            action: input.action,
            restored: withEtag(restored.resource, context.publicOrigin),
            saved_version: versionSummary(restored.saved)
          }
        }
      }
    })
})

// sharing_collection ---------------------------------------------------------------------------

const CollectionInput = Schema.Struct({
  action: Schema.Literals(["add", "arrange", "remove"]).annotate({
    description:
      "add: copy one of your files or images in at the end (item); arrange: the new order naming every item once, with display names and captions (arrangement); remove: one item (item_id)"
  }),
  slug: Slug,
  item: Schema.optionalKey(AddCollectionItemInput),
  arrangement: Schema.optionalKey(ArrangeCollectionInput),
  item_id: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(64))),
  expected_etag: Schema.optionalKey(ExpectedEtag).annotate({
    description: "the collection_etag you last read (etag_mismatch when the items changed since)"
  })
})

const CollectionOutput = Schema.Struct({
  ...ResourceWithEtag.fields,
  added: Schema.optionalKey(CollectionItemView)
})

const sharingCollection = sharingTool({
  name: "sharing_collection",
  title: "Collection items",
  description:
    "Change a collection's items: action=add copies one of your file or image resources in at the end (its bytes count against the storage quota; scope write), action=arrange sets the order and display names and captions in one call (scope write), action=remove deletes one item and its copy (scope delete). Create the collection itself with sharing_create type collection. Send the collection_etag you read as expected_etag.",
  operations: ["collections.addItem", "collections.arrange", "collections.removeItem"],
  operationsOf: (input) =>
    input.action === "add"
      ? ["collections.addItem"]
      : input.action === "arrange"
        ? ["collections.arrange"]
        : ["collections.removeItem"],
  input: CollectionInput,
  output: CollectionOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const collections = yield* SharingCollections
      switch (input.action) {
        case "add": {
          yield* need(input, input.action, ["item"])
          const { collection, item } = yield* collections.addItem(
            input.slug,
            input.item as AddCollectionItemInput,
            input.expected_etag
          )
          return {
            ...withEtag(collection, context.publicOrigin),
            added: collectionItemView(item, publicResourceUrl(context.publicOrigin, collection.slug))
          }
        }
        case "arrange": {
          yield* need(input, input.action, ["arrangement"])
          const collection = yield* collections.arrange(
            input.slug,
            input.arrangement as ArrangeCollectionInput,
            input.expected_etag
          )
          return withEtag(collection, context.publicOrigin)
        }
        case "remove": {
          yield* need(input, input.action, ["item_id"])
          yield* collections.removeItem(input.slug, input.item_id ?? "", input.expected_etag)
          return withEtag(yield* SharingResources.use((r) => r.get(input.slug)), context.publicOrigin)
        }
      }
    })
})

// sharing_bio ----------------------------------------------------------------------------------

const SUBMISSIONS = { default: 50, max: 200 } as const

const BioInput = Schema.Struct({
  action: Schema.Literals(["replace", "submissions", "delete_submission"]).annotate({
    description:
      "replace: the whole profile, pages and blocks (bio); submissions: the visitor form submissions, newest first (limit, offset); delete_submission: one submission (submission_id)"
  }),
  slug: Slug,
  bio: Schema.optionalKey(ReplaceBioInput),
  expected_etag: Schema.optionalKey(ExpectedEtag),
  submission_id: Schema.optionalKey(Uuid),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: SUBMISSIONS.max }))),
  offset: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100_000 })))
})

const SubmissionView = Schema.Struct({
  id: Schema.String,
  block_id: Schema.String,
  form_title: Schema.String,
  values: Schema.Record(Schema.String, Schema.String),
  created_at: Schema.String
})

const BioOutput = Schema.Struct({
  action: Schema.Literals(["replace", "submissions", "delete_submission"]),
  bio: Schema.optionalKey(ResourceWithEtag),
  submissions: Schema.optionalKey(
    Schema.Struct({
      items: Schema.Array(SubmissionView),
      total: Schema.Int,
      limit: Schema.Int,
      offset: Schema.Int
    })
  ),
  deleted: Schema.optionalKey(Schema.Boolean)
})

const sharingBio = sharingTool({
  name: "sharing_bio",
  title: "Bio pages",
  description:
    "A bio page's profile and pages, as PATCH /resources/{slug}/bio: action=replace sets display_name, headline, bio, theme and every page with its blocks (link, heading, text, form; image and file blocks are kept by naming their id, and uploaded with the file tools) (scope write). action=submissions reads what visitors sent through the page's forms (scope read); action=delete_submission deletes one (scope delete). Create the bio page with sharing_create type bio.",
  operations: ["bio.replace", "bio.listSubmissions", "bio.deleteSubmission"],
  operationsOf: (input) =>
    input.action === "replace"
      ? ["bio.replace"]
      : input.action === "submissions"
        ? ["bio.listSubmissions"]
        : ["bio.deleteSubmission"],
  input: BioInput,
  output: BioOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const bio = yield* SharingBio
      switch (input.action) {
        case "replace": {
          yield* need(input, input.action, ["bio"])
          const replaced = yield* bio.replace(input.slug, input.bio as ReplaceBioInput, input.expected_etag)
          return { action: input.action, bio: withEtag(replaced, context.publicOrigin) }
        }
        case "submissions": {
          const limit = input.limit ?? SUBMISSIONS.default
          const offset = input.offset ?? 0
          const page = yield* bio.listSubmissions(input.slug, { limit, offset })
          return {
            action: input.action,
            submissions: {
              items: page.items.map((s) => ({
                id: s.id,
                block_id: s.blockId,
                form_title: s.formTitle,
                values: { ...s.values },
                created_at: s.createdAt.toISOString()
              })),
              total: page.total,
              limit,
              offset
            }
          }
        }
        case "delete_submission": {
          yield* need(input, input.action, ["submission_id"])
          yield* bio.deleteSubmission(input.slug, input.submission_id ?? "")
          return { action: input.action, deleted: true }
        }
      }
    })
})

// sharing_manage -------------------------------------------------------------------------------

const ManageInput = Schema.Struct({
  slug: Slug,
  action: Schema.Literals([
    "archive",
    "unarchive",
    "pin",
    "unpin",
    "set_labels",
    "add_labels",
    "remove_labels",
    "delete"
  ]).annotate({
    description:
      "archive/unarchive, pin/unpin, set_labels (replace them all), add_labels, remove_labels (labels); delete: the resource and its public URL, at once and for good"
  }),
  labels: Schema.optionalKey(ResourceLabels),
  expected_etag: Schema.optionalKey(ExpectedEtag)
})

const ManageOutput = Schema.Struct({
  action: Schema.String,
  resource: Schema.optionalKey(ResourceWithEtag),
  deleted: Schema.optionalKey(Schema.Boolean)
})

const sharingManage = sharingTool({
  name: "sharing_manage",
  title: "Archive, pin, label or delete",
  description:
    "Manage one resource: archive or unarchive it (archived resources stay public but leave default lists), pin or unpin it, set, add or remove labels (lower-case a-z, 0-9, _ and -) (scope write), or delete it (scope delete; its public URL stops at once). expected_etag as for sharing_update.",
  operations: ["resources.update", "resources.delete"],
  operationsOf: (input) =>
    input.action === "delete"
      ? ["resources.delete"]
      : input.action === "add_labels" || input.action === "remove_labels"
        ? ["resources.get", "resources.update"]
        : ["resources.update"],
  input: ManageInput,
  output: ManageOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const resources = yield* SharingResources
      const update = (changes: PatchResourceInput) =>
        Effect.map(resources.update(input.slug, changes, input.expected_etag), (record) => ({
          action: input.action,
          resource: withEtag(record, context.publicOrigin)
        }))
      switch (input.action) {
        case "archive":
          return yield* update({ archived: true })
        case "unarchive":
          return yield* update({ archived: false })
        case "pin":
          return yield* update({ pinned: true })
        case "unpin":
          return yield* update({ pinned: false })
        case "set_labels":
          yield* need(input, input.action, ["labels"])
          return yield* update({ labels: input.labels ?? [] })
        case "add_labels":
        case "remove_labels": {
          yield* need(input, input.action, ["labels"])
          const current = yield* resources.get(input.slug)
          const given = new Set(input.labels ?? [])
          const labels =
            input.action === "add_labels"
              ? [...new Set([...current.labels, ...given])]
              : current.labels.filter((l) => !given.has(l))
          // The labels read are the ones changed: without a caller's etag, the read's own guards the write.
          return yield* Effect.map(
            resources.update(input.slug, { labels }, input.expected_etag ?? resourceEtagOf(current)),
            (record) => ({ action: input.action, resource: withEtag(record, context.publicOrigin) })
          )
        }
        case "delete":
          yield* resources.delete(input.slug)
          return { action: input.action, deleted: true }
      }
    })
})

export const AUTHORING_TOOLS = [
  sharingCreate,
  sharingUpdate,
  sharingLinkSimulate,
  sharingMarkdownVersions,
  sharingCollection,
  sharingBio,
  sharingManage
]
