import type { ResourceType } from "../resources/resource.js"
import { RefusedAt, RefusedAtWith, RefusedField, RefusedFieldWith } from "./fields.js"

/** What a use case wanted the slug to name, as a client reads it. */
export type ResourceNoun = "a link" | "a Notion mirror" | "an artifact" | "a collection" | "a bio page"

/** The slug names a resource of another type than the route is for. */
export class ResourceOfOtherType extends RefusedFieldWith(
  "ResourceOfOtherType",
  "slug",
  (e: { readonly resourceType: ResourceType; readonly wanted: ResourceNoun }) =>
    `a ${e.resourceType} resource is not ${e.wanted}`
) {}

/** A resource's type is fixed when it is created. */
export class TypeImmutable extends RefusedField("TypeImmutable", "type", "cannot change after creation") {}

/** A resource's visibility is fixed when it is created. */
export class VisibilityImmutable extends RefusedField(
  "VisibilityImmutable",
  "visibility",
  "cannot change after creation"
) {}

/** A patch sets a field that belongs to another type of resource. */
export class FieldOfOtherType extends RefusedAtWith(
  "FieldOfOtherType",
  (e: { readonly field: string; readonly resourceType: ResourceType }) =>
    `not a field of a ${e.resourceType} resource`
) {}

/** The availability window ends at or before it starts. */
export class WindowInverted extends RefusedField("WindowInverted", "expires_at", "must be after starts_at") {}

/** A Markdown body sent twice, as body_markdown and as raw_markdown. */
export class MarkdownSourceAmbiguous extends RefusedField(
  "MarkdownSourceAmbiguous",
  "raw_markdown",
  "send body_markdown or raw_markdown, not both"
) {}

/** A markdown page created without a body. */
export class MarkdownBodyMissing extends RefusedField(
  "MarkdownBodyMissing",
  "body_markdown",
  "required for a markdown page"
) {}

/** A Notion source sent twice, as source_url and as fetch_url. */
export class NotionSourceAmbiguous extends RefusedField(
  "NotionSourceAmbiguous",
  "fetch_url",
  "send source_url or fetch_url, not both"
) {}

/** A Notion mirror created without a source. */
export class NotionSourceMissing extends RefusedField(
  "NotionSourceMissing",
  "source_url",
  "required for a notion mirror"
) {}

/** A root_page_id that is not a Notion page id. */
export class NotionRootPageInvalid extends RefusedField(
  "NotionRootPageInvalid",
  "root_page_id",
  "not a Notion page id"
) {}

/** A Notion source URL (source_url or fetch_url, whichever was sent) naming no page, and no root_page_id. */
export class NotionSourceNamesNoPage extends RefusedAt(
  "NotionSourceNamesNoPage",
  "names no Notion page (a notion.so or notion.site page URL, or send root_page_id)"
) {}

/** A page_id that is not one of the mirror's pages. */
export class NotionPageNotMirrored extends RefusedField(
  "NotionPageNotMirrored",
  "page_id",
  "not a page of this mirror"
) {}

/** A resource-list cursor that this list, with this sort, did not hand out. */
export class ResourceCursorUnknown extends RefusedField(
  "ResourceCursorUnknown",
  "cursor",
  "not a cursor of this list and sort"
) {}

/** Simulating an unsaved link without its target_url. */
export class LinkTargetMissing extends RefusedField("LinkTargetMissing", "target_url", "required") {}

/** A CSV import whose file has no header row. */
export class CsvEmpty extends RefusedField("CsvEmpty", "csv", "the file is empty") {}

/** A CSV import whose header has no destination URL column of the detected (or named) export. */
export class CsvUrlColumnMissing extends RefusedFieldWith(
  "CsvUrlColumnMissing",
  "csv",
  (e: { readonly source: "bitly" | "linktree" }) =>
    `no destination URL column of a ${e.source} export in the header`
) {}

/** A CSV import of more rows than one import takes. */
export class CsvTooManyRows extends RefusedFieldWith(
  "CsvTooManyRows",
  "csv",
  (e: { readonly maxRows: number }) => `at most ${e.maxRows} rows per import; split the file`
) {}

/** A CSV import the parser cannot read; the parser's error code and the line, when it gave them. */
export class CsvUnreadable extends RefusedFieldWith(
  "CsvUnreadable",
  "csv",
  (e: { readonly parserCode?: string | undefined; readonly line?: number | undefined }) => {
    const what = e.parserCode === undefined ? "" : ` (${e.parserCode})`
    const where = e.line === undefined ? "" : ` near line ${e.line}`
    return `not a readable CSV file${what}${where}`
  }
) {}

export const RESOURCE_REFUSALS = [
  ResourceOfOtherType,
  TypeImmutable,
  VisibilityImmutable,
  FieldOfOtherType,
  WindowInverted,
  MarkdownSourceAmbiguous,
  MarkdownBodyMissing,
  NotionSourceAmbiguous,
  NotionSourceMissing,
  NotionRootPageInvalid,
  NotionSourceNamesNoPage,
  NotionPageNotMirrored,
  ResourceCursorUnknown,
  LinkTargetMissing,
  CsvEmpty,
  CsvUrlColumnMissing,
  CsvTooManyRows,
  CsvUnreadable
] as const
