// A visitor's answer to a form block of a public bio page: checked against the form's fields
// (required ones filled, an email that looks like one, lengths), then stored for the owner. The
// HTTP adapter adds what guards a public form (a honeypot, a time trap, a rate limit per address).
import { Clock, Effect, Option } from "effect"
import { SuspendedAccounts } from "../../identity/ports/suspended-accounts.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { BioFormFieldMissing, BioFormFieldNotEmail, FieldTooLong, ResourceNotFound } from "../errors.js"
import { BioSubmissions } from "../ports/bio-submissions.js"
import { ResourceRepository } from "../ports/resources.js"
import { resourceServedPublicly } from "../public-access.js"
import { isResourceSlug } from "../resources/rules.js"
import { type BioFormField, bioPagesOf } from "./bio.js"

/** The longest answer of each kind of field, in characters. */
export const FORM_FIELD_MAX: Readonly<Record<BioFormField["kind"], number>> = {
  text: 300,
  email: 254,
  textarea: 2000
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** The answers `sent` as the form keeps them, or the first field that is wrong. */
export const checkFormAnswers = (
  fields: ReadonlyArray<BioFormField>,
  sent: Readonly<Record<string, string>>
) => {
  const values: Record<string, string> = {}
  for (const field of fields) {
    const value = (sent[field.name] ?? "").trim()
    if (value === "") {
      if (field.required) return Effect.fail(new BioFormFieldMissing({ field: field.name }))
      continue
    }
    if ([...value].length > FORM_FIELD_MAX[field.kind])
      return Effect.fail(new FieldTooLong({ field: field.name, maxChars: FORM_FIELD_MAX[field.kind] }))
    if (field.kind === "email" && !EMAIL.test(value))
      return Effect.fail(new BioFormFieldNotEmail({ field: field.name }))
    values[field.name] = value
  }
  return Effect.succeed(values)
}

/** Stores a visitor's answers to form block `blockId` of the public bio page at `slug`. */
export const submitBioForm = (slug: string, blockId: string, sent: Readonly<Record<string, string>>) =>
  Effect.gen(function* () {
    const repo = yield* ResourceRepository
    const submissions = yield* BioSubmissions
    const ids = yield* IdGen
    const suspended = yield* SuspendedAccounts
    const found = isResourceSlug(slug) ? yield* repo.getBySlugAnyTenant(slug) : Option.none()
    if (Option.isNone(found) || found.value.type !== "bio" || !resourceServedPublicly(suspended, found.value))
      return yield* new ResourceNotFound()
    const bio = found.value
    const block = bioPagesOf(bio)
      .flatMap((p) => p.blocks)
      .find((b) => b.id === blockId)
    if (block === undefined || block.type !== "form") return yield* new ResourceNotFound()
    const values = yield* checkFormAnswers(block.fields, sent)
    yield* submissions.insert({
      id: yield* ids.uuidV7,
      tenantId: bio.tenantId,
      resourceId: bio.id,
      blockId,
      formTitle: block.title,
      values,
      createdAt: new Date(yield* Clock.currentTimeMillis)
    })
    return { bio, block }
  })
