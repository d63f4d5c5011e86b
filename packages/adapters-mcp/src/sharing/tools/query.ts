// The query tools: find and read resources (list with filters, text search, one resource with its
// etag, the labels in use) and a resource's analytics summary, over the use cases REST calls.
import {
  AnalyticsSummary,
  MAX_SUMMARY_DAYS,
  RESOURCE_LABEL_PATTERN,
  ResourceSort,
  ResourceType,
  ResourceView,
  SharingAnalytics,
  SharingResources
} from "@folio/domain"
import { Effect, Schema } from "effect"
import { sharingTool } from "../tool.js"
import { listView, need, ResourceWithEtag, Slug, withEtag } from "./shared.js"

/** Page sizes, as `GET /resources` takes them. */
const PAGE = { default: 20, max: 100 } as const

/** How many of the newest resources the labels action reads. */
export const LABELS_SCAN = 1000

const QueryInput = Schema.Struct({
  action: Schema.Literals(["list", "search", "get", "labels"]).annotate({
    description:
      "list: the account's resources, newest first unless sort (type, label, archived, pinned, limit, cursor); search: the same with text q matched in title, slug and description; get: one resource with everything editable and its etag (slug); labels: the labels in use with how many resources carry each"
  }),
  slug: Schema.optionalKey(Slug),
  q: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  type: Schema.optionalKey(ResourceType),
  label: Schema.optionalKey(Schema.String.check(Schema.isPattern(RESOURCE_LABEL_PATTERN))),
  archived: Schema.optionalKey(Schema.Boolean),
  pinned: Schema.optionalKey(Schema.Boolean),
  sort: Schema.optionalKey(ResourceSort),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: PAGE.max }))),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(512)))
})

const QueryOutput = Schema.Struct({
  action: Schema.Literals(["list", "search", "get", "labels"]),
  items: Schema.optionalKey(Schema.Array(ResourceView)),
  next_cursor: Schema.optionalKey(Schema.NullOr(Schema.String)),
  resource: Schema.optionalKey(ResourceWithEtag),
  labels: Schema.optionalKey(Schema.Array(Schema.Struct({ label: Schema.String, resources: Schema.Int }))),
  /** labels: whether more resources exist than were read. */
  truncated: Schema.optionalKey(Schema.Boolean)
})

const sharingQuery = sharingTool({
  name: "sharing_query",
  title: "Find and read resources",
  description: `Read the account's resources (links, Markdown pages, collections, bio pages, files, images, Notion mirrors, artifacts). action=list pages them (newest first; filter by type, label, archived, pinned; sort; limit up to ${PAGE.max}, then pass next_cursor as cursor). action=search does the same for text q in title, slug or description. action=get returns one resource (slug) with every editable field, its public url and its etag (send it as expected_etag when you write). action=labels counts the labels in use over the ${LABELS_SCAN} newest resources. Lists leave Markdown bodies out: get the page for its body.`,
  operations: ["resources.list", "resources.get"],
  operationsOf: (input) => (input.action === "get" ? ["resources.get"] : ["resources.list"]),
  input: QueryInput,
  output: QueryOutput,
  run: (input, context) =>
    Effect.gen(function* () {
      const resources = yield* SharingResources
      switch (input.action) {
        case "list":
        case "search": {
          if (input.action === "search") yield* need(input, input.action, ["q"])
          const page = yield* resources.list({
            limit: input.limit ?? PAGE.default,
            cursor: input.cursor,
            type: input.type,
            q: input.action === "search" ? input.q : undefined,
            label: input.label,
            archived: input.archived,
            pinned: input.pinned,
            sort: input.sort
          })
          return {
            action: input.action,
            items: page.items.map((item) => listView(item, context.publicOrigin)),
            next_cursor: page.nextCursor
          }
        }
        case "get": {
          yield* need(input, input.action, ["slug"])
          return {
            action: input.action,
            resource: withEtag(yield* resources.get(input.slug ?? ""), context.publicOrigin)
          }
        }
        case "labels": {
          const counts = new Map<string, number>()
          let cursor: string | undefined
          let read = 0
          let more = true
          while (more && read < LABELS_SCAN) {
            const page = yield* resources.list({ limit: PAGE.max, cursor })
            for (const item of page.items)
              for (const l of item.labels) counts.set(l, (counts.get(l) ?? 0) + 1)
            read += page.items.length
            cursor = page.nextCursor ?? undefined
            more = cursor !== undefined
          }
          return {
            action: input.action,
            labels: [...counts]
              .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
              .map(([label, resources]) => ({ label, resources })),
            truncated: more
          }
        }
      }
    })
})

const AnalyticsInput = Schema.Struct({
  slug: Slug,
  days: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: MAX_SUMMARY_DAYS }))
  ).annotate({
    description: `the last N days (1..${MAX_SUMMARY_DAYS}); all time when neither days nor from/to is sent`
  }),
  from: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(10))).annotate({
    description: "first UTC day, YYYY-MM-DD (with to)"
  }),
  to: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(10))).annotate({
    description: "last UTC day, YYYY-MM-DD (with from)"
  })
})

const sharingAnalytics = sharingTool({
  name: "sharing_analytics",
  title: "Analytics summary",
  description:
    "One resource's analytics: views and unique visitors per day, with the top browsers, systems, devices, referrers, UTM tags, countries and (for links) destinations. All time unless days or from+to (UTC days, YYYY-MM-DD). Visits are recorded within a second or two of happening.",
  operations: ["analytics.summary"],
  operationsOf: () => ["analytics.summary"],
  input: AnalyticsInput,
  output: AnalyticsSummary,
  run: (input) =>
    SharingAnalytics.use((analytics) =>
      analytics.summary(input.slug, { days: input.days, from: input.from, to: input.to })
    )
})

export const QUERY_TOOLS = [sharingQuery, sharingAnalytics]
