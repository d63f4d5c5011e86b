// The sharing service's refused fields: each class has its row in the sharing error table
// (`validation_failed` at the class's field), and each reads as the text clients have always read.
import { SharingErrors } from "@folio/adapters-http"
import * as Domain from "@folio/domain"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"

type Refusal = Domain.SharingFieldRefusal
type AnyRefusalClass = new (facts?: Readonly<Record<string, unknown>>) => Refusal

/** Facts for any refusal class that takes some; a fact its class decides itself is left out. */
const FACTS: Readonly<Record<string, unknown>> = {
  field: "pages.0.id",
  reason: "must be a string",
  maxChars: 300,
  blockId: "blk_1",
  blockType: "link",
  kind: "image",
  maxBlocks: 100,
  resourceType: "file",
  wanted: "a link",
  source: "bitly",
  maxRows: 1000,
  parserCode: "CSV_QUOTE_NOT_CLOSED",
  line: 3,
  maxItems: 500,
  maxFiles: 20,
  maxDays: 365,
  missing: "from",
  problem: "is too long",
  maxEndpoints: 20
}

const decidedByClass = (prototype: object, key: string): boolean => {
  for (let p: object | null = prototype; p !== null && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.getOwnPropertyDescriptor(p, key)?.get !== undefined) return true
  }
  return false
}

const sample = (refusal: AnyRefusalClass): Refusal => {
  const facts = Object.fromEntries(
    Object.entries(FACTS).filter(([key]) => !decidedByClass(refusal.prototype, key))
  )
  return new refusal(facts)
}

const refusals = (Domain.SHARING_FIELD_REFUSALS as ReadonlyArray<unknown>).map((c) =>
  sample(c as AnyRefusalClass)
)

describe("sharing refused fields", () => {
  it("lists every class once", () => {
    const tags = refusals.map((e) => e._tag)
    expect(new Set(tags).size).toBe(tags.length)
  })

  it.each(refusals.map((e) => [e._tag, e] as const))(
    "answers %s as validation_failed at its field",
    async (_, error) => {
      expect(Domain.isFieldRefusal(error)).toBe(true)
      expect(SharingErrors.handles(error)).toBe(true)
      expect(typeof error.field).toBe("string")
      expect(typeof error.reason).toBe("string")
      expect(error.message).toBe(`${error.field}: ${error.reason}`)
      expect(error.message).not.toMatch(/undefined/)
      const response = await Effect.runPromise(SharingErrors.respond(error))
      expect(response.status).toBe(400)
      const body = JSON.parse(new TextDecoder().decode((response.body as { body: Uint8Array }).body))
      expect(body).toEqual({ error: error.message, error_code: "validation_failed", field: error.field })
    }
  )

  // The texts the call sites built before each refusal had a name of its own.
  it.each([
    [new Domain.FieldTooLong({ field: "title", maxChars: 300 }), "title: at most 300 characters"],
    [new Domain.FieldSentTwice({ field: "caption" }), "caption: send this field once"],
    [
      new Domain.ResourceOfOtherType({ resourceType: "file", wanted: "a Notion mirror" }),
      "slug: a file resource is not a Notion mirror"
    ],
    [new Domain.TypeImmutable(), "type: cannot change after creation"],
    [new Domain.VisibilityImmutable(), "visibility: cannot change after creation"],
    [
      new Domain.FieldOfOtherType({ field: "target_url", resourceType: "markdown" }),
      "target_url: not a field of a markdown resource"
    ],
    [new Domain.WindowInverted(), "expires_at: must be after starts_at"],
    [new Domain.MarkdownSourceAmbiguous(), "raw_markdown: send body_markdown or raw_markdown, not both"],
    [new Domain.MarkdownBodyMissing(), "body_markdown: required for a markdown page"],
    [new Domain.NotionSourceAmbiguous(), "fetch_url: send source_url or fetch_url, not both"],
    [new Domain.NotionSourceMissing(), "source_url: required for a notion mirror"],
    [new Domain.NotionRootPageInvalid(), "root_page_id: not a Notion page id"],
    [
      new Domain.NotionSourceNamesNoPage({ field: "fetch_url" }),
      "fetch_url: names no Notion page (a notion.so or notion.site page URL, or send root_page_id)"
    ],
    [new Domain.NotionPageNotMirrored(), "page_id: not a page of this mirror"],
    [new Domain.ResourceCursorUnknown(), "cursor: not a cursor of this list and sort"],
    [new Domain.LinkTargetMissing(), "target_url: required"],
    [new Domain.CsvEmpty(), "csv: the file is empty"],
    [
      new Domain.CsvUrlColumnMissing({ source: "linktree" }),
      "csv: no destination URL column of a linktree export in the header"
    ],
    [new Domain.CsvTooManyRows({ maxRows: 1000 }), "csv: at most 1000 rows per import; split the file"],
    [new Domain.CsvUnreadable({}), "csv: not a readable CSV file"],
    [
      new Domain.CsvUnreadable({ parserCode: "CSV_QUOTE_NOT_CLOSED", line: 4 }),
      "csv: not a readable CSV file (CSV_QUOTE_NOT_CLOSED) near line 4"
    ],
    [new Domain.CollectionSourceNotFound(), "resource: no file or image of yours has this slug or id"],
    [new Domain.CollectionSourceNotMedia(), "resource: only files and images can be added"],
    [new Domain.CollectionSourceBytesGone(), "resource: the file's bytes are gone"],
    [new Domain.CollectionFull({ maxItems: 500 }), "resource: a collection holds at most 500 items"],
    [new Domain.CollectionItemRepeated(), "items: names an item more than once"],
    [new Domain.CollectionOrderIncomplete(), "items: must name every item of the collection, and only those"],
    [new Domain.BioPageUnknown({ field: "pages.1.id" }), "pages.1.id: no page of this bio has this id"],
    [new Domain.BioPageIdRepeated({ field: "pages.1.id" }), "pages.1.id: two pages have this id"],
    [new Domain.BioPageSlugRepeated({ field: "pages.1.slug" }), "pages.1.slug: two pages have this slug"],
    [
      new Domain.BioBlockIdRepeated({ field: "pages.0.blocks.2.id" }),
      "pages.0.blocks.2.id: two blocks have this id"
    ],
    [
      new Domain.BioBlockTypeImmutable({
        field: "pages.0.blocks.2.type",
        blockId: "b7",
        blockType: "heading"
      }),
      "pages.0.blocks.2.type: block b7 is a heading block"
    ],
    [
      new Domain.BioMediaBlockNotUploaded({ field: "pages.0.blocks.1.id", kind: "image" }),
      "pages.0.blocks.1.id: an image block is added by uploading its file; name an existing one to keep it"
    ],
    [
      new Domain.BioMediaBlockNotUploaded({ field: "pages.0.blocks.1.id", kind: "file" }),
      "pages.0.blocks.1.id: a file block is added by uploading its file; name an existing one to keep it"
    ],
    [
      new Domain.BioFormFieldNameRepeated({ field: "pages.0.blocks.3.fields" }),
      "pages.0.blocks.3.fields: two fields have one name"
    ],
    [new Domain.BioPageFull({ maxBlocks: 100 }), "pageID: a page holds at most 100 blocks"],
    [new Domain.BioBlockTakesNoFile({ blockType: "link" }), "blockID: a link block has no file"],
    [new Domain.BioBlockTakesNoThumbnail({ blockType: "form" }), "blockID: a form block has no thumbnail"],
    [new Domain.BioFormFieldMissing({ field: "email" }), "email: required"],
    [new Domain.BioFormFieldNotEmail({ field: "email" }), "email: an email address"],
    [new Domain.UploadedFileEmpty({ field: "file" }), "file: the file is empty"],
    [new Domain.FilePartNotSingle(), "file: send exactly one file part, named file"],
    [new Domain.FilePartMissing(), "file: required"],
    [new Domain.UploadFieldsTooMany(), "body: too many fields"],
    [new Domain.UploadStartsAtRefused(), "starts_at: uploads do not take starts_at"],
    [new Domain.UploadFieldUnknown({ field: "body" }), "body: not a field of this upload"],
    [new Domain.ViewLimitOnImage(), "max_views: view limits apply to files, not images"],
    [new Domain.NoOriginalFile({ resourceType: "link" }), "slug: a link resource has no original file"],
    [new Domain.UploadRequestRevoked(), "id: the upload request was revoked for good"],
    [new Domain.SubmissionFieldUnknown(), "body: not a field of this form"],
    [new Domain.SubmissionFilesMisnamed(), "files: send files in parts named files"],
    [new Domain.SubmissionTooManyFiles({ maxFiles: 20 }), "files: at most 20 files at once"],
    [new Domain.SubmissionWithoutFiles(), "files: choose at least one file"],
    [new Domain.DeployMetadataMissing(), "metadata: required (a JSON object)"],
    [new Domain.DeployMetadataNotJson(), "metadata: must be a JSON object"],
    [new Domain.DeployMetadataRepeated(), "metadata: send it once"],
    [new Domain.DeployMetadataTooLong(), "metadata: too long"],
    [new Domain.DeployPartUnknown({ field: "extra" }), "extra: not a part of this body"],
    [new Domain.DeployPartRepeated({ field: "f1" }), "f1: two parts have this name"],
    [new Domain.DeployArchiveAndFiles(), "archive: send one archive, or files, not both"],
    [new Domain.DeployContentMissing(), "archive: send an archive or files"],
    [new Domain.DeployArchivePathsListed(), "metadata.files: an archive's paths come from the archive"],
    [
      new Domain.DeployFilePartMissing({ field: "metadata.files.0.part" }),
      "metadata.files.0.part: no part of the body has this name"
    ],
    [new Domain.DeployPartUnplaced({ field: "f2" }), "f2: a file part not named in metadata.files"],
    [new Domain.DeletePathsWithoutPatch(), "metadata.delete_paths: only a patch removes paths"],
    [new Domain.PatchBaseMissing(), "metadata.base_deployment_id: required for a patch"],
    [
      new Domain.DeletePathUnknown({ field: "metadata.delete_paths.1" }),
      "metadata.delete_paths.1: not a file of the base deployment"
    ],
    [new Domain.ArtifactFileNotEditable(), "path: not a text file of at most 1 MiB"],
    [new Domain.ArtifactFileNotUtf8(), "path: the file is not UTF-8 text"],
    [new Domain.JobCursorUnknown(), "cursor: not a cursor of this list"],
    [new Domain.JobNotFailed(), "id: only a failed or skipped job can be retried"],
    [new Domain.JobNotRetryable(), "id: this job cannot be retried"],
    [new Domain.RangeHalfGiven({ missing: "from" }), "from: give from together with to"],
    [new Domain.RangeHalfGiven({ missing: "to" }), "to: give to together with from"],
    [new Domain.RangeDateMalformed({ field: "to" }), "to: must be a date YYYY-MM-DD"],
    [new Domain.RangeInverted(), "to: must not be before from"],
    [new Domain.RangeTooLong({ maxDays: 3660 }), "to: a range spans at most 3660 days"],
    [new Domain.RangeDaysWithDates(), "days: give either days or from and to"],
    [new Domain.RangeDaysOutOfBounds({ maxDays: 365 }), "days: must be from 1 to 365"],
    [
      new Domain.WebhookUrlRefused({ problem: "must not carry credentials" }),
      "url: must not carry credentials"
    ],
    [
      new Domain.WebhookEndpointLimitReached({ maxEndpoints: 20 }),
      "url: an account has at most 20 webhook endpoints"
    ]
  ] as ReadonlyArray<readonly [Refusal, string]>)("reads %s as %s", (error, text) => {
    expect(error.message).toBe(text)
  })
})
