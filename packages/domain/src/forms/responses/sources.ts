// What the read models read from: the definition that applies now, and the completed responses
// of a form as a stream of keyset pages (constant memory, newest first).
import { Effect, Option, Result, Stream } from "effect"
import { type FormRecord, FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { decodeFormDefinition, emptyFormDefinition, type FormDefinition } from "../definition/definition.js"

/** The definition readers go by: the current version's, or the draft's when nothing is published. */
export const currentDefinitionOf = (form: FormRecord) =>
  Effect.gen(function* () {
    if (form.currentVersionId === null) return form.draftDefinition
    const version = yield* Effect.flatMap(Effect.service(FormRepository), (r) =>
      r.getVersion(form.workspaceId, form.id, form.currentVersionId ?? "")
    )
    return Option.isSome(version) ? version.value.definition : form.draftDefinition
  })

export const classicDefinitionOf = (form: FormRecord) =>
  Effect.map(
    currentDefinitionOf(form),
    (stored): FormDefinition => Result.getOrElse(decodeFormDefinition(stored), () => emptyFormDefinition())
  )

/** The completed responses of a form, newest first, read `pageSize` at a time. */
export const completedResponses = (form: FormRecord, pageSize: number) =>
  Stream.paginate(undefined as string | undefined, (cursor) =>
    Effect.flatMap(Effect.service(ResponseRepository), (r) =>
      r.list(form.workspaceId, form.id, { limit: pageSize, cursor, status: "completed" }).pipe(
        // Our own cursors are always valid; a vanished page ends the stream.
        Effect.catchTag("InvalidCursor", () => Effect.succeed({ items: [], nextCursor: null })),
        Effect.map((page) => [page.items, Option.fromNullishOr(page.nextCursor)] as const)
      )
    )
  )
