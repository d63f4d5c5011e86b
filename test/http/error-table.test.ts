// The forms error table is the one source of every error on every surface: for each error tag it
// has a row for, the REST error it becomes carries the row's code and the status of that code's
// class, the served OpenAPI document publishes that class as a component that accepts exactly that
// body and lists it under that status, and MCP advertises the code in every tool's output schema
// (keyless codes excepted) and sends the same body. Real requests then show one failure answered
// alike over REST and MCP.
import {
  type CodeSpec,
  NothingHere,
  BodyUnreadable,
  RequestInvalid,
  RequestRefused,
  RequestTooLarge,
  ServerFault,
  statusOf
} from "@folio/adapters-http/shared"
import { FormsErrors, type FormsSurfaceError } from "@folio/adapters-http"
import {
  AccountDisabled,
  AnswersNotAnObject,
  CustomScriptNotOverMcp,
  DraftRevisionConflict,
  EmptyUpload,
  FeaturesDisabled,
  FileNotFound,
  FileTooLarge,
  FileTypeNotAccepted,
  FORMS_SCOPES,
  FormChangedConcurrently,
  FormClosed,
  FormKindDisabled,
  FormNotFound,
  ImageKeysNotOwned,
  ImageNotFound,
  ImageTooLarge,
  InsufficientScope,
  InvalidAnswers,
  ConsentNotGiven,
  WithdrawalLinkInvalid,
  InvalidCohort,
  InvalidDefinition,
  InvalidListCursor,
  InvalidSettings,
  InvalidSlug,
  NotAnImage,
  NotAnUploadBlock,
  NothingToPublish,
  NothingToResume,
  PartialSubmissionsDisabled,
  PinnedVersionNotFound,
  PublishedFormNotFound,
  RateLimited,
  RenderModeDisabled,
  RepeatResponse,
  ResponseChangedMeanwhile,
  InterviewMessageInvalid,
  InterviewFinished,
  InterviewExpired,
  InterviewNotStarted,
  InterviewRestartNotAllowed,
  DisclosureNotAccepted,
  ResponseCompletedMeanwhile,
  ResponseNotEditable,
  ResponseNotFound,
  ResponseTokenMismatch,
  SettingsSignatureConflict,
  SlugAllocationFailed,
  SlugInUse,
  StorageError,
  TenantNotFound,
  TooManyUploads,
  Unauthorized,
  UnreadableSourceDraft,
  VersionNotFound,
  WrongFormKind
} from "@folio/domain"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { mcpClient } from "../support/mcp-client.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeAjv2020 } from "../support/ajv.js"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import type { Json, OpenApiDocument as Document } from "../support/openapi.js"

type Tag = FormsSurfaceError["_tag"]

const issues = [{ path: ["title"], rule: "maxLength" }]

/** One error of every tag the table has a row for: a new tag without a sample does not compile. */
const SAMPLES: { readonly [T in Tag]: Extract<FormsSurfaceError, { readonly _tag: T }> } = {
  Unauthorized: new Unauthorized({ message: "unknown API key" }),
  AccountDisabled: new AccountDisabled(),
  RateLimited: new RateLimited({ message: "rate limit exceeded for this API key", retryAfterSeconds: 12 }),
  InsufficientScope: new InsufficientScope({
    message: "this API key lacks the scope forms:write",
    requiredScopes: ["forms:write"]
  }),
  StorageError: new StorageError({ message: "connection refused by 10.0.0.5", cause: new Error("secret") }),
  RequestInvalid: new RequestInvalid({ message: "request failed validation", issues }),
  BodyUnreadable: new BodyUnreadable({ message: "request body is not valid JSON" }),
  RequestTooLarge: new RequestTooLarge({ message: "request body exceeds 1048576 bytes" }),
  NothingHere: new NothingHere({ message: "no such route" }),
  RequestRefused: new RequestRefused({ message: "download link has expired" }),
  ServerFault: new ServerFault({ message: "internal server error" }),
  TenantNotFound: new TenantNotFound(),
  FormNotFound: new FormNotFound(),
  VersionNotFound: new VersionNotFound(),
  PinnedVersionNotFound: new PinnedVersionNotFound(),
  ResponseNotFound: new ResponseNotFound(),
  FileNotFound: new FileNotFound(),
  ImageNotFound: new ImageNotFound(),
  PublishedFormNotFound: new PublishedFormNotFound(),
  NothingToResume: new NothingToResume(),
  WithdrawalLinkInvalid: new WithdrawalLinkInvalid(),
  InvalidDefinition: new InvalidDefinition({ kind: "classic", issues }),
  InvalidSettings: new InvalidSettings({ issues }),
  InvalidSlug: new InvalidSlug(),
  InvalidListCursor: new InvalidListCursor(),
  ImageKeysNotOwned: new ImageKeysNotOwned({
    issues: [{ path: ["blocks", 0, "imageKey"], rule: "assetOwnership" }]
  }),
  CustomScriptNotOverMcp: new CustomScriptNotOverMcp(),
  NotAnImage: new NotAnImage(),
  AnswersNotAnObject: new AnswersNotAnObject(),
  InvalidAnswers: new InvalidAnswers({ issues: [{ path: ["answers", "blk_00000001"], rule: "required" }] }),
  ConsentNotGiven: new ConsentNotGiven({ issues: [{ path: ["consent", 0], rule: "consentRequired" }] }),
  NotAnUploadBlock: new NotAnUploadBlock({ rule: "unknownBlock" }),
  EmptyUpload: new EmptyUpload(),
  FileTypeNotAccepted: new FileTypeNotAccepted(),
  TooManyUploads: new TooManyUploads(),
  InvalidCohort: new InvalidCohort({ rule: "order" }),
  DraftRevisionConflict: new DraftRevisionConflict({ draftRevision: 7 }),
  SettingsSignatureConflict: new SettingsSignatureConflict({ settingsSignature: `sha256:${"0".repeat(64)}` }),
  SlugInUse: new SlugInUse({ slug: "taken-slug" }),
  SlugAllocationFailed: new SlugAllocationFailed(),
  FormChangedConcurrently: new FormChangedConcurrently(),
  RepeatResponse: new RepeatResponse({
    respondent: { id: "a1b2c3d4", confidence: "deterministic", responseCount: 2, repeatCount: 1 }
  }),
  ResponseNotEditable: new ResponseNotEditable(),
  ResponseCompletedMeanwhile: new ResponseCompletedMeanwhile(),
  ResponseChangedMeanwhile: new ResponseChangedMeanwhile(),
  InterviewMessageInvalid: new InterviewMessageInvalid({ maxLength: 4000 }),
  InterviewFinished: new InterviewFinished(),
  InterviewExpired: new InterviewExpired(),
  InterviewNotStarted: new InterviewNotStarted(),
  InterviewRestartNotAllowed: new InterviewRestartNotAllowed(),
  DisclosureNotAccepted: new DisclosureNotAccepted({ version: "1" }),
  FormKindDisabled: new FormKindDisabled({ kind: "interview" }),
  FeaturesDisabled: new FeaturesDisabled({ features: ["file_upload"] }),
  RenderModeDisabled: new RenderModeDisabled({ mode: "document" }),
  NothingToPublish: new NothingToPublish({ kind: "classic" }),
  UnreadableSourceDraft: new UnreadableSourceDraft(),
  WrongFormKind: new WrongFormKind({ read: "summary" }),
  PartialSubmissionsDisabled: new PartialSubmissionsDisabled(),
  ResponseTokenMismatch: new ResponseTokenMismatch(),
  FormClosed: new FormClosed({ reason: "closed_at", closedMessage: "See you next year" }),
  ImageTooLarge: new ImageTooLarge({ maxBytes: 5 * 1024 * 1024 }),
  FileTooLarge: new FileTooLarge({ maxSizeMb: 10 })
}

let app: RunningApp
let doc: Document
let key: string
let readOnlyKey: string
let toolOutputSchemas: ReadonlyArray<{
  readonly name: string
  readonly schema: Json
  readonly validate: (value: unknown) => boolean
}>
const clients: Array<Client> = []
const ajv = makeAjv2020()

const connect = async (apiKey: string) => {
  const client = mcpClient("folio-error-table")
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.origin}/forms/mcp`), {
      requestInit: { headers: bearer(apiKey) }
    })
  )
  clients.push(client)
  return client
}

beforeAll(async () => {
  app = await startApp({ config: { rateLimitPerKey: 100_000 } })
  doc = (await (await fetch(`${app.origin}/forms/api/v1/openapi.json`)).json()) as Document
  key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
  readOnlyKey = (await newWorkspaceKey(app, ["forms:read"])).key
  const { tools } = await (await connect(key)).listTools()
  toolOutputSchemas = tools.map((t) => {
    const schema = (t.outputSchema ?? {}) as Json
    const validate = ajv.compile(schema)
    return { name: t.name, schema, validate: (value: unknown) => validate(value) }
  })
}, 60_000)
afterAll(async () => {
  for (const client of clients) await client.close()
  await app.close()
})

const specOf = (code: string): CodeSpec =>
  (FormsErrors.codes as Readonly<Record<string, CodeSpec>>)[code] as CodeSpec

/** The codes the served MCP output schema of a tool allows in `error.code`. */
const mcpCodesOf = (schema: Json): ReadonlyArray<string> => {
  const found = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item)
      return
    }
    if (typeof node !== "object" || node === null) return
    const error = (node as { properties?: { error?: { properties?: { code?: { enum?: Array<string> } } } } })
      .properties?.error?.properties?.code?.enum
    for (const code of error ?? []) found.add(code)
    for (const value of Object.values(node)) visit(value)
  }
  visit(schema)
  return [...found]
}

/** Whether some operation lists `component` (directly or as one of several) under `status`. */
const listedUnder = (status: number, component: string) =>
  Object.values(doc.paths).some((methods) =>
    Object.values(methods).some((op) =>
      JSON.stringify(op.responses[String(status)]?.content?.["application/json"]?.schema ?? {}).includes(
        `"#/components/schemas/${component}"`
      )
    )
  )

describe("the forms error table drives REST, OpenAPI and MCP", () => {
  const tags = Object.keys(FormsErrors.rows) as Array<Tag>

  it("has a sample for every row, and a row for every sample", () => {
    expect(tags.sort()).toEqual((Object.keys(SAMPLES) as Array<Tag>).sort())
  })

  it.each(Object.keys(SAMPLES) as Array<Tag>)("answers %s with its row's code on every surface", (tag) => {
    const error = SAMPLES[tag]
    const code = FormsErrors.rows[tag].code
    const spec = specOf(code)
    const failure = FormsErrors.failureOf(error)
    expect([failure.code, failure.status]).toEqual([code, statusOf(spec)])

    // REST: the error it becomes is the code's class, whose body carries the code.
    const rest = FormsErrors.apiError(error)
    expect(rest).toBeInstanceOf(spec.error)
    const body = Schema.encodeSync(spec.error as unknown as Schema.Codec<unknown, Json>)(rest)
    expect(body).toEqual(FormsErrors.envelope(failure))
    expect((body.error as Json).code).toBe(code)

    // OpenAPI: the class is a component that takes this body and no other code, listed under its status.
    const component = spec.error.identifier
    const schema = doc.components.schemas[component]
    expect(schema, component).toBeDefined()
    const validate = ajv.compile({ ...schema, components: doc.components })
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true)
    expect(validate({ ...body, error: { ...(body.error as Json), code: "some_other_code" } })).toBe(false)
    expect(listedUnder(statusOf(spec), component), `${component} under ${statusOf(spec)}`).toBe(true)
    expect(doc.info.description ?? "").toMatch(
      new RegExp(`\\|\\s*\`${code}\`\\s*\\|\\s*${statusOf(spec)}\\s*\\|`)
    )

    // MCP: every tool advertises the code (a keyless code, never sent to a key, is not advertised),
    // and the tool error it sends for this failure validates against each tool's output schema.
    const toolError = { error: body.error }
    for (const tool of toolOutputSchemas) {
      expect(mcpCodesOf(tool.schema).includes(code), `${tool.name} advertises ${code}`).toBe(
        spec.keyless !== true
      )
      if (spec.keyless !== true) expect(tool.validate(toolError), tool.name).toBe(true)
    }
  })

  it("advertises on MCP exactly the table's keyed codes, and publishes exactly its classes", () => {
    for (const tool of toolOutputSchemas)
      expect([...mcpCodesOf(tool.schema)].sort()).toEqual([...FormsErrors.keyedCodes].sort())
    const published = Object.values(FormsErrors.codes).map((spec) => spec.error.identifier)
    const isEnvelope = (schema: Json) => {
      const properties = schema.properties as Json | undefined
      return properties?.ok !== undefined && properties.error !== undefined
    }
    const envelopes = Object.entries(doc.components.schemas)
      .filter(([, schema]) => isEnvelope(schema))
      .map(([name]) => name)
    expect(envelopes.sort()).toEqual([...published].sort())
  })

  it("keeps a storage failure's cause off every surface", () => {
    const failure = FormsErrors.failureOf(SAMPLES.StorageError)
    expect(failure).toEqual({ code: "internal", status: 500, message: "internal server error" })
  })
})

describe("one failure, answered alike over REST and MCP", () => {
  const rest = async (apiKey: string, method: string, path: string, body?: unknown) => {
    const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
      method,
      headers: { ...bearer(apiKey), "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const json = (await response.json()) as { data?: Json; error?: Json }
    const answer: { status: number; data?: Json; error?: Json } = { status: response.status }
    if (json.error !== undefined) answer.error = json.error
    else if (json.data !== undefined) answer.data = json.data
    return answer
  }
  const mcp = async (apiKey: string, name: string, args: Json) => {
    const result = await (await connect(apiKey)).callTool({ name, arguments: args })
    expect(result.isError).toBe(true)
    return (result.structuredContent as { error: Json }).error
  }

  it("sends the same code, message and details for a missing form, a stale revision, a bad slug and a missing scope", async () => {
    const missing = "00000000-0000-4000-8000-000000000000"
    const notFound = await rest(key, "GET", `/forms/${missing}`)
    expect(notFound).toEqual({ status: 404, error: { code: "not_found", message: "form not found" } })
    expect(await mcp(key, "forms_query", { action: "get", formId: missing })).toEqual(notFound.error)

    const created = await rest(key, "POST", "/forms", { title: "Table" })
    expect(created.status).toBe(201)
    const form = created.data as { id: string }
    const stale = await rest(key, "PATCH", `/forms/${form.id}`, {
      definition: { schemaVersion: 1, blocks: [] },
      expectedDraftRevision: 5
    })
    expect(stale).toEqual({
      status: 409,
      error: {
        code: "conflict",
        message: "draftRevision does not match: re-read the form and re-apply your change",
        details: { draftRevision: 1 }
      }
    })
    expect(
      await mcp(key, "forms_update", {
        formId: form.id,
        action: "definition",
        definition: { schemaVersion: 1, blocks: [] },
        expectedDraftRevision: 5
      })
    ).toEqual(stale.error)

    const badSlug = await rest(key, "PATCH", `/forms/${form.id}/slug`, { slug: "Not A Slug" })
    expect([badSlug.status, badSlug.error?.code]).toEqual([400, "invalid"])
    expect(await mcp(key, "forms_update", { formId: form.id, action: "slug", slug: "Not A Slug" })).toEqual(
      badSlug.error
    )

    const lacking = await rest(readOnlyKey, "PATCH", `/forms/${form.id}/slug`, { slug: "fine-slug" })
    expect(lacking).toEqual({
      status: 403,
      error: {
        code: "forbidden",
        message: "this API key lacks the scope forms:write",
        details: { requiredScopes: ["forms:write"] }
      }
    })
    expect(
      await mcp(readOnlyKey, "forms_update", { formId: form.id, action: "slug", slug: "fine-slug" })
    ).toEqual(lacking.error)
  })
})
