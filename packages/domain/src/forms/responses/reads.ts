// Client-side reads of classic responses: compact list items, full items and the detail view, in the
// spec's shapes (ClassicResponseCompact, Response).
import { Effect, Option, Schema } from "effect"
import { Uuid } from "../../kernel/ids.js"
import { Principal } from "../../auth/principal.js"
import { Forbidden, Invalid, NotFound, type StorageError, UnsupportedKind } from "../../kernel/errors.js"
import type { FormRepository, InvalidCursor } from "../../ports/forms.js"
import { type ResponseRecord, ResponseRepository, type ResponseStatus } from "../../ports/responses.js"
import { WorkspaceRepository } from "../../ports/workspaces.js"
import { evaluateFeatures } from "../../workspace/capabilities.js"
import { loadForm } from "../use-cases.js"

const Status = Schema.Literal("partial", "completed")
const common = {
  id: Uuid,
  status: Status,
  formVersionId: Uuid,
  translationSetId: Schema.NullOr(Uuid),
  responseLocale: Schema.NullOr(Schema.Literal("en", "ko", "ja")),
  completedAt: Schema.Date
}

export const ClassicResponseCompact = Schema.Struct({ ...common, answerCount: Schema.Int }).annotations({
  identifier: "ClassicResponseCompact"
})

export const ClassicResponse = Schema.Struct({
  ...common,
  answers: Schema.Record({ key: Schema.String, value: Schema.Unknown }),
  files: Schema.Array(Schema.Unknown),
  presentation: Schema.optional(
    Schema.NullOr(Schema.Struct({ assignmentId: Schema.String, order: Schema.Unknown }))
  )
}).annotations({ identifier: "ClassicResponse" })

export interface ResponseCompactView {
  readonly id: string
  readonly status: ResponseStatus
  readonly formVersionId: string
  readonly translationSetId: string | null
  readonly responseLocale: "en" | "ko" | "ja" | null
  readonly completedAt: Date
  readonly answerCount: number
}

export interface ResponseFullView extends Omit<ResponseCompactView, "answerCount"> {
  readonly answers: Readonly<Record<string, unknown>>
  readonly files: ReadonlyArray<unknown>
  readonly presentation?: { readonly assignmentId: string; readonly order: unknown } | null
}

const base = (r: ResponseRecord) => ({
  id: r.id,
  status: r.status,
  formVersionId: r.formVersionId,
  translationSetId: null,
  responseLocale: null,
  // A partial response has not completed; its last save stands in (see docs/decisions.md).
  completedAt: r.completedAt ?? r.updatedAt
})

export const toCompactView = (r: ResponseRecord): ResponseCompactView => ({
  ...base(r),
  answerCount: Object.keys(r.answers).length
})

export const toFullView = (r: ResponseRecord, detail: boolean): ResponseFullView => {
  const presentation = r.meta.presentation as ResponseFullView["presentation"]
  return {
    ...base(r),
    answers: r.answers,
    files: Array.isArray(r.meta.files) ? r.meta.files : [],
    ...(detail ? { presentation: presentation ?? null } : {})
  }
}

export const listResponses = (
  formId: string,
  query: {
    readonly limit: number
    readonly cursor?: string | undefined
    readonly status?: ResponseStatus | undefined
  }
): Effect.Effect<
  { readonly items: ReadonlyArray<ResponseRecord>; readonly nextCursor: string | null },
  NotFound | Forbidden | Invalid | UnsupportedKind | StorageError,
  Principal | WorkspaceRepository | ResponseRepository | FormRepository
> =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    if (form.kind !== "classic")
      return yield* new UnsupportedKind({ message: "interview responses are not served yet" })
    const status = query.status ?? "completed"
    if (status === "partial") {
      const principal = yield* Principal
      if (!principal.scopes.includes("responses:partial:read")) {
        return yield* new Forbidden({
          message: "partial responses need the scope responses:partial:read",
          requiredScopes: ["responses:read", "responses:partial:read"]
        })
      }
      const workspace = yield* Effect.flatMap(WorkspaceRepository, (r) => r.get(principal.workspaceId))
      if (Option.isNone(workspace) || !evaluateFeatures(workspace.value.features).partialSubmissions) {
        return yield* new Forbidden({ message: "partial submissions are not enabled for this workspace" })
      }
    }
    return yield* Effect.flatMap(ResponseRepository, (r) =>
      r.list(form.workspaceId, form.id, { limit: query.limit, cursor: query.cursor, status })
    ).pipe(
      Effect.catchIf(
        (e): e is InvalidCursor =>
          typeof e === "object" && e !== null && "_tag" in e && e._tag === "InvalidCursor",
        () =>
          Effect.fail(
            new Invalid({
              message: "cursor is not valid for this list",
              issues: [{ path: ["cursor"], rule: "cursor" }]
            })
          )
      )
    )
  })

export const getResponse = (formId: string, responseId: string) =>
  Effect.gen(function* () {
    const form = yield* loadForm(formId)
    if (form.kind !== "classic")
      return yield* new UnsupportedKind({ message: "interview responses are not served yet" })
    const found = yield* Effect.flatMap(ResponseRepository, (r) =>
      r.get(form.workspaceId, form.id, responseId)
    )
    return yield* Option.match(found, {
      onNone: () => Effect.fail(new NotFound({ message: "response not found" })),
      onSome: Effect.succeed
    })
  })
