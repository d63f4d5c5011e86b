// The public form page's JavaScript-off submission: `POST /f/{slug}` with the whole form as
// `application/x-www-form-urlencoded` or `multipart/form-data`. One post does what the page's script
// does over the JSON routes: start a response (or continue the partial one an earlier attempt of the
// same respondent left), upload its files, and complete it. What the route answers with (the thank-you
// page, the form again with its errors, the closed page) is the page's; this returns which it is.
import {
  type ClosedReason,
  type FormDefinition,
  type Issue,
  RateLimitStore,
  Respondent,
  type RespondentEstimate,
  type ResponseFileRecord,
  ResponseChangedMeanwhile,
  type ResponseRecord,
  spendRespondentBudget,
  unsafeTextIssues,
  validateAnswers
} from "@folio/domain"
import { ByteSize, Data, Effect, Option, Result, Stream } from "effect"
import { type HttpServerError, type HttpServerRequest, Multipart } from "effect/http"
import { clientIp, RequestInvalid, RequestTooLarge } from "../../shared/index.js"
import { respondentClient, setContinuityCookie } from "../respondent/continuity.js"
import {
  type Continuation,
  decodeFormPost,
  FORM_POST_NAMES,
  fieldsOfAnswers,
  type FormPost,
  type PostedField,
  type PostedFile
} from "./form-post.js"

const MIB = 1024 * 1024

/**
 * The most one post may carry, files included (the request guard's cap for `POST /f/{slug}`). The
 * page's script uploads files one at a time (each up to the largest maxSizeMb, 25 MiB); without it every file
 * comes in this one body, so it admits two files at that cap, or five at the default 10 MB, and a form asking
 * for more must be answered with JavaScript on. See docs/decisions/0024-public-form-page.md.
 */
export const MAX_FORM_POST_BYTES = 50 * MIB

/**
 * The most text one post may carry: a urlencoded body, or the names and values of a multipart body's
 * text fields (counted in characters). Text becomes strings on the heap, so it is capped well below
 * the body: the JSON routes take a whole response's answers in 1 MiB.
 */
export const MAX_FORM_TEXT_BYTES = 4 * MIB

/** Files uploaded for a file_upload block in this or an earlier attempt, for the page to offer back. */
export interface UploadedFileRef {
  readonly key: string
  readonly filename: string
}

/** What one JavaScript-off post came to. */
export type SubmitOutcome = Data.TaggedEnum<{
  /** The response is complete. `continuityToken` is the browser's (set in the cookie when it started here). */
  Completed: {
    readonly response: ResponseRecord
    readonly continuityToken: string | undefined
    /** The response's token, for the completion page's "Edit your response" (forms that allow edits). */
    readonly token: string
  }
  /**
   * The completion page asked to edit the completed response (`_edit=1` with its token, on a form
   * that allows editing): the page renders the form refilled with `fields` and `uploaded`, posting
   * `_response`/`_token` back.
   */
  Editing: {
    readonly responseId: string
    readonly token: string
    readonly fields: ReadonlyArray<PostedField>
    readonly uploaded: Readonly<Record<string, ReadonlyArray<UploadedFileRef>>>
  }
  /**
   * The answers did not pass: the response stays partial with what was valid saved. The page renders
   * the form again with `fields` refilled, `issues` at their blocks, `responseId` and `token` as
   * `_response`/`_token`, and `uploaded` as `<blockId>.keep` so the files need not be sent again.
   */
  Invalid: {
    /** The domain's value-free issues, path `["answers", blockId]`; upload refusals come first. */
    readonly issues: ReadonlyArray<Issue>
    readonly responseId: string
    readonly token: string
    /** The posted text fields, in order, without `_response` and `_token`. */
    readonly fields: ReadonlyArray<PostedField>
    /** Per file_upload block, the files now uploaded to this response that the post kept or sent. */
    readonly uploaded: Readonly<Record<string, ReadonlyArray<UploadedFileRef>>>
  }
  /** The form is not taking responses; `message` is the author's closed message, if any. */
  Closed: { readonly reason: ClosedReason; readonly message: string | null }
  /** A form under research compliance posted without every consent item ticked: nothing was stored. */
  ConsentRequired: {
    /** The posted text fields, to refill the form under the consent error. */
    readonly fields: ReadonlyArray<PostedField>
  }
  /** A soft_block form this browser already answered: the page asks, and posts again with `_confirmRepeat=1`. */
  RepeatNeedsConfirmation: {
    readonly respondent: RespondentEstimate
    /** The posted text fields, to refill the form under the confirmation. */
    readonly fields: ReadonlyArray<PostedField>
  }
}>
export const SubmitOutcome = Data.taggedEnum<SubmitOutcome>()

const contentTypeOf = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase() ?? ""

const tooLarge = () =>
  new RequestTooLarge({
    message: `a form post carries at most ${MAX_FORM_POST_BYTES} bytes, and at most ${MAX_FORM_TEXT_BYTES} bytes of text`
  })

const unreadable = (message: string) => new RequestInvalid({ message })

const notAForm = () =>
  new RequestInvalid({
    message: "the request body must be a form (application/x-www-form-urlencoded or multipart/form-data)",
    issues: [
      {
        path: [],
        rule: "contentType",
        expected: "application/x-www-form-urlencoded or multipart/form-data"
      }
    ]
  })

const fromReadError = (error: HttpServerError.HttpServerError) =>
  error.reason._tag === "RequestParseError" && error.reason.reason === "BodyTooLarge"
    ? tooLarge()
    : unreadable("the request body could not be read")

const fromMultipartError = (error: Multipart.MultipartError) => {
  switch (error.reason._tag) {
    case "BodyTooLarge":
    case "FieldTooLarge":
    case "FileTooLarge":
    case "TooManyParts":
      return tooLarge()
    default:
      return unreadable("the request body is not valid multipart")
  }
}

interface FormBody {
  readonly fields: ReadonlyArray<PostedField>
  readonly files: ReadonlyArray<PostedFile>
}

const textBytes = (fields: ReadonlyArray<PostedField>) =>
  fields.reduce((sum, [name, value]) => sum + name.length + value.length, 0)

const readUrlEncoded = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const length = Number(request.headers["content-length"] ?? "0")
    if (Number.isFinite(length) && length > MAX_FORM_TEXT_BYTES) return yield* tooLarge()
    const params = yield* request.urlParamsBody.pipe(Effect.mapError(fromReadError))
    const fields = params.params.map(([name, value]): PostedField => [name, String(value)])
    if (textBytes(fields) > MAX_FORM_TEXT_BYTES) return yield* tooLarge()
    return { fields, files: [] } satisfies FormBody
  })

/**
 * The multipart body in order. Only file parts named by a file_upload block of the definition are
 * kept in memory; other files are read past. Text over its cap is not kept either, and refused once
 * the whole body is read, so the client reads the 413 rather than a reset.
 */
const readMultipart = (request: HttpServerRequest.HttpServerRequest, fileBlocks: ReadonlySet<string>) =>
  Effect.gen(function* () {
    const fields: Array<PostedField> = []
    const files: Array<PostedFile> = []
    let text = 0
    yield* Stream.runForEach(request.multipartStream, (part) => {
      if (part._tag === "Field") {
        text += part.key.length + part.value.length
        if (text <= MAX_FORM_TEXT_BYTES) fields.push([part.key, part.value])
        return Effect.void
      }
      if (!fileBlocks.has(part.key)) return Stream.runDrain(part.content)
      return Effect.map(part.contentEffect, (bytes) => {
        files.push({ name: part.key, filename: part.name, contentType: part.contentType, bytes })
      })
    }).pipe(
      Effect.provideService(Multipart.MaxFieldSize, ByteSize.bytes(MAX_FORM_TEXT_BYTES)),
      Effect.mapError(fromMultipartError)
    )
    if (text > MAX_FORM_TEXT_BYTES) return yield* tooLarge()
    return { fields, files } satisfies FormBody
  })

const hasBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.headers["transfer-encoding"] !== undefined || Number(request.headers["content-length"] ?? "0") > 0

/** The post's text fields and the files of `fileBlocks` (urlencoded or multipart). */
export const readFormBody = (
  request: HttpServerRequest.HttpServerRequest,
  fileBlocks: ReadonlySet<string>
): Effect.Effect<FormBody, RequestInvalid | RequestTooLarge> => {
  switch (contentTypeOf(request)) {
    case "application/x-www-form-urlencoded":
      return readUrlEncoded(request)
    case "multipart/form-data":
      return readMultipart(request, fileBlocks)
    case "":
      if (!hasBody(request)) return Effect.succeed({ fields: [], files: [] })
      return Effect.fail(notAForm())
    default:
      return Effect.fail(notAForm())
  }
}

/** Text no store can keep (NUL, lone surrogates), by the field's name. */
export const unstorable = (fields: ReadonlyArray<PostedField>): ReadonlyArray<Issue> =>
  fields.flatMap(([name, value]) => [
    ...unsafeTextIssues(name, ["fields"]),
    ...unsafeTextIssues(value, [name])
  ])

/** The response this post writes: continued from an earlier attempt, or started by it. */
interface Session {
  readonly responseId: string
  readonly token: string
  /** What the response holds already: answers the post no longer sends are cleared. */
  readonly earlier: Readonly<Record<string, unknown>>
  readonly files: ReadonlyArray<ResponseFileRecord>
  readonly params: Readonly<Record<string, string>>
  readonly continuityToken: string | undefined
  /** An edit of a completed response: a refused edit writes nothing (no partial save). */
  readonly editing: boolean
}

/** An upload the domain refused for its content, as an issue at its block: the page shows it there. */
const uploadIssue = (blockId: string, rule: string): Issue => ({ path: ["answers", blockId], rule })

const blockOf = (issue: Issue): string | undefined =>
  issue.path[0] === "answers" && typeof issue.path[1] === "string" ? issue.path[1] : undefined

/** Tries of the partial save after a failed completion; each clears the blocks the last one refused. */
const PARTIAL_SAVE_ATTEMPTS = 3

const submit = (slug: string, request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function* () {
    const limits = yield* RateLimitStore
    yield* spendRespondentBudget(limits, clientIp(request))
    const respondent = yield* Respondent
    const { published, closed } = yield* respondent.publicForm(slug)
    if (closed !== undefined)
      return SubmitOutcome.Closed({
        reason: closed,
        message: published.settings.submission.closedMessage ?? null
      })
    const definition = published.definition
    const fileBlocks = new Set(definition.blocks.filter((b) => b.type === "file_upload").map((b) => b.id))

    const body = yield* readFormBody(request, fileBlocks)
    const unsafe = unstorable(body.fields)
    if (unsafe.length > 0)
      return yield* new RequestInvalid({
        message: "the form holds text that cannot be stored",
        issues: unsafe
      })
    const post: FormPost = decodeFormPost(definition, body.fields, body.files)
    const continuityToken = respondentClient(request).continuityToken

    /** The response by the post's token, when the token owns one of this form. */
    const ownResponse = (continuation: Continuation) =>
      respondent.ownResponse(slug, continuation.responseId, continuation.token).pipe(
        Effect.map(Option.some),
        Effect.catchTags({
          ResponseNotFound: () => Effect.succeedNone,
          ResponseTokenMismatch: () => Effect.succeedNone
        }),
        Effect.map(Option.getOrUndefined)
      )
    const completed = (response: ResponseRecord, token: string) =>
      SubmitOutcome.Completed({ response, continuityToken, token })
    const editable = published.settings.submission.allowResponseEditing === true

    // Continue the earlier attempt's response when the token owns it. A partial one on the current
    // version goes on. One already completed (the same post sent twice, or again after the thank-you
    // page) is answered as it stands, so a second click does not make a second response, unless the
    // form allows editing: then `_edit` from the completion page reopens it, and a post of the
    // reopened form is the edit.
    let session: Session | undefined
    if (post.continuation !== undefined) {
      const own = yield* ownResponse(post.continuation)
      if (own !== undefined && own.response.formVersionId === published.version.id) {
        const isCompleted = own.response.status === "completed"
        if (isCompleted && !editable) return completed(own.response, post.continuation.token)
        if (isCompleted && post.edit) {
          const uploaded: Record<string, Array<UploadedFileRef>> = {}
          for (const f of own.files)
            uploaded[f.blockId] = [...(uploaded[f.blockId] ?? []), { key: f.key, filename: f.filename }]
          return SubmitOutcome.Editing({
            ...post.continuation,
            fields: [
              ...Object.entries(paramsOf(own.response)).map(
                ([k, v]): PostedField => [FORM_POST_NAMES.param(k), v]
              ),
              ...fieldsOfAnswers(definition, own.response.answers)
            ],
            uploaded
          })
        }
        session = {
          ...post.continuation,
          earlier: own.response.answers,
          files: own.files,
          params: paramsOf(own.response),
          continuityToken,
          editing: isCompleted
        }
      }
    }
    if (session === undefined) {
      const attempt = yield* Effect.result(
        respondent.start(slug, post.params, {
          ...respondentClient(request, post.confirmRepeat),
          consent: post.consent
        })
      )
      if (attempt._tag === "Failure" && attempt.failure._tag === "ConsentNotGiven")
        return SubmitOutcome.ConsentRequired({ fields: body.fields })
      // A soft_block repeat: the page asks to confirm, with what was typed kept.
      if (attempt._tag === "Failure" && attempt.failure._tag === "RepeatResponse")
        return SubmitOutcome.RepeatNeedsConfirmation({
          respondent: attempt.failure.respondent,
          fields: body.fields
        })
      if (attempt._tag === "Failure") return yield* Effect.fail(attempt.failure)
      const started = attempt.success
      yield* setContinuityCookie(started.continuityToken)
      session = {
        responseId: started.response.id,
        token: started.token,
        earlier: {},
        files: [],
        params: paramsOf(started.response),
        continuityToken: started.continuityToken,
        editing: false
      }
    }
    const continued = session
    // Another post of the same response completed it while this one was writing: this one is answered
    // with that completion, as if it had come second.
    const completedMeanwhile = Effect.flatMap(ownResponse(continued), (own) =>
      own?.response.status === "completed"
        ? Effect.succeed(completed(own.response, continued.token))
        : Effect.fail(new ResponseChangedMeanwhile())
    )
    return yield* write(respondent, slug, definition, post, body, continued).pipe(
      Effect.catchTags({
        ResponseCompletedMeanwhile: () => completedMeanwhile,
        ResponseNotEditable: () => completedMeanwhile
      })
    )
  })

/** Uploads the post's files to the session's response and completes it, or saves what was valid. */
const write = (
  respondent: Respondent["Service"],
  slug: string,
  definition: FormDefinition,
  post: FormPost,
  body: FormBody,
  session: Session
) =>
  Effect.gen(function* () {
    const { responseId, token } = session

    // Files: the earlier attempt's that the post keeps (only this response's own), then the new ones.
    const refusedFiles: Array<Issue> = []
    const uploaded: Record<string, Array<UploadedFileRef>> = {}
    const add = (blockId: string, file: UploadedFileRef) => {
      uploaded[blockId] = [...(uploaded[blockId] ?? []), file]
    }
    for (const [blockId, keys] of Object.entries(post.keep)) {
      for (const key of keys) {
        const file = session.files.find((f) => f.key === key && f.blockId === blockId)
        if (file !== undefined) add(blockId, { key: file.key, filename: file.filename })
      }
    }
    for (const file of post.files) {
      const refused = (rule: string) => Effect.succeed({ refused: uploadIssue(file.blockId, rule) })
      const stored = yield* respondent
        .uploadFile(slug, responseId, token, {
          blockId: file.blockId,
          filename: file.filename,
          claimedType: file.contentType,
          bytes: file.bytes
        })
        .pipe(
          Effect.map((f) => ({ stored: { key: f.key, filename: f.filename } })),
          Effect.catchTags({
            FileTooLarge: () => refused("maxSize"),
            FileTypeNotAccepted: () => refused("fileType"),
            EmptyUpload: () => refused("empty"),
            TooManyUploads: () => refused("maxUploads")
          })
        )
      if ("refused" in stored) refusedFiles.push(stored.refused)
      else add(file.blockId, stored.stored)
    }

    // The post is the whole form: what the response held and the post no longer sends is cleared.
    const answers: Record<string, unknown> = { ...post.answers }
    for (const [blockId, files] of Object.entries(uploaded)) answers[blockId] = files.map((f) => f.key)
    for (const blockId of Object.keys(session.earlier)) if (!(blockId in answers)) answers[blockId] = null

    const issues: Array<Issue> = []
    if (refusedFiles.length === 0) {
      const completion = yield* respondent.save(slug, responseId, token, answers, true).pipe(
        Effect.map((response) => ({ response })),
        Effect.catchTag("InvalidAnswers", (e) => Effect.succeed({ refused: e.issues }))
      )
      if ("response" in completion)
        return SubmitOutcome.Completed({
          response: completion.response,
          continuityToken: session.continuityToken,
          token
        })
      issues.push(...completion.refused)
    } else {
      // A refused file is not dropped silently by completing without it: the respondent sees why,
      // beside whatever else a completion would have refused.
      const checked = validateAnswers(definition, answers, { final: true, params: session.params })
      if (Result.isFailure(checked) && checked.failure._tag === "InvalidAnswers")
        issues.push(...checked.failure.issues)
    }

    // What was valid is kept: blocks with a refused answer are cleared and the rest saved as partial
    // (a block whose only fault is a refused file keeps the files it did take).
    // A refused edit of a completed response keeps the response as it was: nothing is saved.
    let partial = answers
    for (let attempt = 0; attempt < (session.editing ? 0 : PARTIAL_SAVE_ATTEMPTS); attempt++) {
      const refused = new Set(issues.flatMap((i) => blockOf(i) ?? []))
      partial = Object.fromEntries(
        Object.entries(partial).map(([id, value]) => [id, refused.has(id) ? null : value])
      )
      const saved = yield* respondent.save(slug, responseId, token, partial, false).pipe(
        Effect.as(undefined),
        Effect.catchTag("InvalidAnswers", (e) => Effect.succeed(e.issues))
      )
      if (saved === undefined) break
      issues.push(...saved.filter((i) => !issues.some((o) => sameIssue(o, i))))
    }

    return SubmitOutcome.Invalid({
      issues: [...refusedFiles, ...issues],
      responseId,
      token,
      fields: body.fields.filter(
        ([name]) => name !== FORM_POST_NAMES.response && name !== FORM_POST_NAMES.token
      ),
      uploaded
    })
  })

const paramsOf = (response: ResponseRecord) =>
  (response.meta.params ?? {}) as Readonly<Record<string, string>>

const sameIssue = (a: Issue, b: Issue) =>
  a.rule === b.rule && a.path.length === b.path.length && a.path.every((p, i) => p === b.path[i])

/**
 * Receives one JavaScript-off post of the form at `slug`. Counts against the client's respondent
 * budget; reads the body (urlencoded or multipart); starts a response, or continues the partial one
 * named by `_response` with its `_token` (a wrong token, or a response no longer partial or on another
 * version, starts a new one); uploads the files; completes with the answers. Starting sets the
 * continuity cookie as the JSON start route does. A closed form and a soft_block repeat are outcomes;
 * an unknown slug fails with the domain's PublishedFormNotFound, over budget with RateLimited, a body
 * that is not a form or holds unstorable text with RequestInvalid, one over the text cap with
 * RequestTooLarge. Every failure has its row in FormsErrors.
 */
export const submitPostedForm = (slug: string, request: HttpServerRequest.HttpServerRequest) =>
  submit(slug, request).pipe(
    Effect.catchTags({
      FormClosed: (e) =>
        Effect.succeed(SubmitOutcome.Closed({ reason: e.reason, message: e.closedMessage ?? null }))
    })
  )

/** Every failure of submitPostedForm; each has a row in FormsErrors. */
export type SubmitError = Effect.Error<ReturnType<typeof submitPostedForm>>
