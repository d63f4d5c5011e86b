// Which named error a use case ends with where several could: a stale token is judged against the
// state a lost race re-read (DraftRevisionConflict with the fresh revision, not a generic conflict),
// a write that keeps losing gives up with FormChangedConcurrently, a taken slug is SlugInUse while
// slugs drawn at random that keep clashing are SlugAllocationFailed; a respondent's save that lost
// tells a completion by another request from a change, and a partial response read says why it is
// refused. The use cases run against the in-memory ports, with faults injected where a race is needed.
import { IdGenLive, MemoryBlobStoreLive, MemoryStorageLive } from "@folio/adapters-storage"
import {
  createFormUseCase,
  FORMS_SCOPES,
  FormRepository,
  getResponse,
  IdGen,
  loadForm,
  Principal,
  patchDefinition,
  patchSettings,
  publishForm,
  ResponseRepository,
  saveAnswers,
  setFormSlug,
  SlugTaken,
  StaleForm,
  startResponse,
  TenantRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import { describe, expect } from "vitest"

const ports = Layer.mergeAll(
  MemoryStorageLive,
  IdGenLive,
  MemoryBlobStoreLive({ publicOrigin: "http://folio.test", signingSecret: "test-secret" })
)

const question = { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }] }

/** The effect run as a forms key, holding `scopes`, of a new tenant with `features`. */
const asTenant = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  options: { readonly scopes?: ReadonlyArray<string>; readonly features?: Record<string, boolean> } = {}
) =>
  Effect.gen(function* () {
    const id = yield* Effect.flatMap(Effect.service(IdGen), (ids) => ids.uuidV7)
    yield* Effect.flatMap(Effect.service(TenantRepository), (tenants) =>
      tenants.create({ id, name: "Acme", features: options.features ?? {}, createdAt: new Date(0) })
    )
    return yield* Effect.provideService(effect, Principal, {
      tenant: id,
      service: "forms",
      scopes: options.scopes ?? FORMS_SCOPES,
      keyId: "key"
    })
  })

/** Runs `effect` with the form repository's `save` (or `insert`) replaced for it. */
const withForms = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  decorate: (real: FormRepository["Service"]) => Partial<FormRepository["Service"]>
) =>
  Effect.flatMap(Effect.service(FormRepository), (real) =>
    Effect.provideService(effect, FormRepository, { ...real, ...decorate(real) })
  )

const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (r) => (Result.isFailure(r) ? r.failure : undefined))

describe("which conflict a form write ends with", () => {
  it.effect("a token that went stale while the write lost a race names the revision it re-read", () =>
    asTenant(
      Effect.gen(function* () {
        const form = yield* createFormUseCase({ kind: "classic", title: "T" })
        let raced = false
        // Another writer saves first: this write loses the race, re-reads revision 2, and its
        // expectedDraftRevision 1 is stale against that, not a lost race to retry again.
        const failure = yield* failureOf(
          withForms(patchDefinition(form.id, { definition: question, expectedDraftRevision: 1 }), (real) => ({
            save: (next, version) => {
              if (raced) return real.save(next, version)
              raced = true
              return Effect.andThen(
                real.save({ ...form, draftRevision: 2, rowVersion: form.rowVersion + 1 }),
                Effect.fail(new StaleForm())
              )
            }
          }))
        )
        expect(failure).toMatchObject({ _tag: "DraftRevisionConflict", draftRevision: 2 })
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a write that keeps losing races gives up with FormChangedConcurrently", () =>
    asTenant(
      Effect.gen(function* () {
        const form = yield* createFormUseCase({ kind: "classic", title: "T" })
        let saves = 0
        const failure = yield* failureOf(
          withForms(patchDefinition(form.id, { definition: question, expectedDraftRevision: 1 }), () => ({
            save: () => {
              saves++
              return Effect.fail(new StaleForm())
            }
          }))
        )
        expect(failure?._tag).toBe("FormChangedConcurrently")
        expect(saves).toBeGreaterThan(1)
        // Nothing was written: the stored draft is still the first one.
        expect((yield* loadForm(form.id)).draftRevision).toBe(1)
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a slug another form holds is SlugInUse naming it; a malformed one is InvalidSlug", () =>
    asTenant(
      Effect.gen(function* () {
        const first = yield* createFormUseCase({ kind: "classic", title: "A" })
        const second = yield* createFormUseCase({ kind: "classic", title: "B" })
        expect(yield* failureOf(setFormSlug(second.id, first.slug))).toMatchObject({
          _tag: "SlugInUse",
          slug: first.slug
        })
        expect(yield* failureOf(setFormSlug(second.id, "Not A Slug"))).toMatchObject({
          _tag: "InvalidSlug",
          issues: [{ path: ["slug"], rule: "slug" }]
        })
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect(
    "random slugs that clash are drawn again, and SlugAllocationFailed only once every draw clashed",
    () =>
      asTenant(
        Effect.gen(function* () {
          let inserts = 0
          const clashOnce = yield* withForms(createFormUseCase({ kind: "classic", title: "T" }), (real) => ({
            insert: (form) => (inserts++ === 0 ? Effect.fail(new SlugTaken(form.slug)) : real.insert(form))
          }))
          expect([clashOnce.title, inserts]).toEqual(["T", 2])
          const failure = yield* failureOf(
            withForms(createFormUseCase({ kind: "classic", title: "T" }), () => ({
              insert: (form) => Effect.fail(new SlugTaken(form.slug))
            }))
          )
          expect(failure?._tag).toBe("SlugAllocationFailed")
        })
      ).pipe(Effect.provide(ports))
  )
})

/** A published one-question form, its public slug, and a response started on it. */
const startedResponse = (settings?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const created = yield* createFormUseCase({ kind: "classic", title: "T", definition: question })
    const form =
      settings === undefined
        ? created
        : yield* patchSettings(created.id, {
            settings,
            expectedSettingsSignature: created.settingsSignature ?? ""
          })
    yield* publishForm(form.id, { expectedDraftRevision: form.draftRevision })
    const started = yield* startResponse(form.slug, {})
    return { form, slug: form.slug, responseId: started.response.id, token: started.token }
  })

/** Runs `effect` with the response repository's `update` replaced for it. */
const withResponses = <A, E, R>(
  effect: Effect.Effect<A, E, R>,
  update: (real: ResponseRepository["Service"]) => ResponseRepository["Service"]["update"]
) =>
  Effect.flatMap(Effect.service(ResponseRepository), (real) =>
    Effect.provideService(effect, ResponseRepository, { ...real, update: update(real) })
  )

describe("which failure a respondent's save ends with", () => {
  const answers = { blk_00000001: "Ada" }

  it.effect(
    "a completed response without editing is ResponseNotEditable; a foreign token ResponseTokenMismatch",
    () =>
      asTenant(
        Effect.gen(function* () {
          const { slug, responseId, token } = yield* startedResponse()
          yield* saveAnswers(slug, responseId, token, answers, true)
          expect((yield* failureOf(saveAnswers(slug, responseId, token, answers, false)))?._tag).toBe(
            "ResponseNotEditable"
          )
          expect(
            (yield* failureOf(saveAnswers(slug, responseId, "not-the-token", answers, false)))?._tag
          ).toBe("ResponseTokenMismatch")
          expect(
            (yield* failureOf(
              saveAnswers(slug, "00000000-0000-4000-8000-000000000000", token, answers, false)
            ))?._tag
          ).toBe("ResponseNotFound")
        })
      ).pipe(Effect.provide(ports))
  )

  it.effect(
    "losing to another request's completion is ResponseCompletedMeanwhile, never a retry over it",
    () =>
      asTenant(
        Effect.gen(function* () {
          const { slug, responseId, token } = yield* startedResponse()
          let updates = 0
          const failure = yield* failureOf(
            withResponses(
              saveAnswers(slug, responseId, token, { blk_00000001: "Bob" }, false),
              (real) => (next, expected) => {
                if (updates++ > 0) return real.update(next, expected)
                // Another request completes the response first; this save finds its row changed.
                return Effect.as(
                  real.update({ ...next, status: "completed", completedAt: next.updatedAt }, expected),
                  "stale" as const
                )
              }
            )
          )
          expect(failure?._tag).toBe("ResponseCompletedMeanwhile")
          expect(updates).toBe(1)
        })
      ).pipe(Effect.provide(ports))
  )

  it.effect("losing to saves every time is ResponseChangedMeanwhile after the retries", () =>
    asTenant(
      Effect.gen(function* () {
        const { slug, responseId, token } = yield* startedResponse()
        let updates = 0
        const failure = yield* failureOf(
          withResponses(saveAnswers(slug, responseId, token, answers, false), () => () => {
            updates++
            return Effect.succeed("stale" as const)
          })
        )
        expect(failure?._tag).toBe("ResponseChangedMeanwhile")
        expect(updates).toBeGreaterThan(1)
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("an edit of a completed response that loses is ResponseChangedMeanwhile at once (no retry)", () =>
    asTenant(
      Effect.gen(function* () {
        const { slug, responseId, token } = yield* startedResponse({
          submission: { allowResponseEditing: true }
        })
        yield* saveAnswers(slug, responseId, token, answers, true)
        let updates = 0
        const failure = yield* failureOf(
          withResponses(saveAnswers(slug, responseId, token, answers, false), () => () => {
            updates++
            return Effect.succeed("stale" as const)
          })
        )
        expect([failure?._tag, updates]).toEqual(["ResponseChangedMeanwhile", 1])
      })
    ).pipe(Effect.provide(ports))
  )
})

describe("why a partial response is not read", () => {
  const fileUrl = () => "http://folio.test/file"
  const partial = Effect.map(startedResponse(), ({ form, responseId }) => ({ formId: form.id, responseId }))

  it.effect("over MCP it is ResponseNotFound, as if it did not exist", () =>
    asTenant(
      Effect.gen(function* () {
        const { formId, responseId } = yield* partial
        expect(
          (yield* failureOf(getResponse(formId, responseId, { fileUrl, partials: "hidden" })))?._tag
        ).toBe("ResponseNotFound")
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("without responses:partial:read it is InsufficientScope naming both scopes", () =>
    asTenant(
      Effect.gen(function* () {
        const { formId, responseId } = yield* partial
        expect(
          yield* failureOf(getResponse(formId, responseId, { fileUrl, partials: "scoped" }))
        ).toMatchObject({
          _tag: "InsufficientScope",
          requiredScopes: ["responses:read", "responses:partial:read"]
        })
      }),
      { scopes: FORMS_SCOPES.filter((s) => s !== "responses:partial:read") }
    ).pipe(Effect.provide(ports))
  )

  it.effect("with the scope but the feature off it is PartialSubmissionsDisabled", () =>
    asTenant(
      Effect.gen(function* () {
        const { formId, responseId } = yield* partial
        expect(
          (yield* failureOf(getResponse(formId, responseId, { fileUrl, partials: "scoped" })))?._tag
        ).toBe("PartialSubmissionsDisabled")
      }),
      { features: { partialSubmissions: false } }
    ).pipe(Effect.provide(ports))
  )
})
