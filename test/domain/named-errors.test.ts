// Which named error a use case ends with where several could: a stale token is judged against the
// state a lost race re-read (DraftRevisionConflict with the fresh revision, not a generic conflict),
// a write that keeps losing gives up with FormChangedConcurrently, a taken slug is SlugInUse while
// slugs drawn at random that keep clashing are SlugAllocationFailed; a respondent's save that lost
// tells a completion by another request from a change, a resume tells "nothing to resume" from a
// token rotation that kept losing, and a partial response read says why it is refused. The use-case services run over the in-memory ports; where a race is needed a service is
// built again over a port with a fault injected.
import { IdGenLive, MemoryBlobStoreLive, MemoryStorageLive } from "@folio/adapters-storage"
import {
  BuiltInInsightExtractorLive,
  FORMS_SCOPES,
  FormAuthoring,
  FormRepository,
  FormResponses,
  DeterministicInterviewerLive,
  FormsServicesLive,
  IdGen,
  InsightPolicy,
  makeFormAuthoring,
  makeRespondent,
  Principal,
  Respondent,
  ResponseRepository,
  SlugTaken,
  StaleForm,
  TenantRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer, Result } from "effect"
import { describe, expect } from "vitest"

const ports = Layer.provideMerge(
  FormsServicesLive,
  Layer.mergeAll(
    MemoryStorageLive,
    IdGenLive,
    MemoryBlobStoreLive({ publicOrigin: "http://folio.test", signingSecret: "test-secret" }),
    BuiltInInsightExtractorLive,
    DeterministicInterviewerLive,
    Layer.succeed(InsightPolicy, { autoThreshold: 0.3, minResponses: 5, scanLimit: 2_000 })
  )
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
      tenants.create({
        id,
        name: "Acme",
        features: options.features ?? {},
        createdAt: new Date(0),
        disabledAt: null,
        memberKeyScopes: {}
      })
    )
    return yield* Effect.provideService(effect, Principal, {
      tenant: id,
      service: "forms",
      scopes: options.scopes ?? FORMS_SCOPES,
      keyId: "key"
    })
  })

/** Runs `use` on a FormAuthoring built over the form repository with `save` (or `insert`) replaced. */
const withForms = <A, E, R>(
  use: (forms: FormAuthoring["Service"]) => Effect.Effect<A, E, R>,
  decorate: (real: FormRepository["Service"]) => Partial<FormRepository["Service"]>
) =>
  Effect.flatMap(Effect.service(FormRepository), (real) =>
    Effect.flatMap(
      Effect.provideService(makeFormAuthoring, FormRepository, { ...real, ...decorate(real) }),
      use
    )
  )

const failureOf = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.map(Effect.result(effect), (r) => (Result.isFailure(r) ? r.failure : undefined))

describe("which conflict a form write ends with", () => {
  it.effect("a token that went stale while the write lost a race names the revision it re-read", () =>
    asTenant(
      Effect.gen(function* () {
        const forms = yield* FormAuthoring
        const form = yield* forms.create({ kind: "classic", title: "T" })
        let raced = false
        // Another writer saves first: this write loses the race, re-reads revision 2, and its
        // expectedDraftRevision 1 is stale against that, not a lost race to retry again.
        const failure = yield* failureOf(
          withForms(
            (forms) => forms.patchDefinition(form.id, { definition: question, expectedDraftRevision: 1 }),
            (real) => ({
              save: (next, version) => {
                if (raced) return real.save(next, version)
                raced = true
                return Effect.andThen(
                  real.save({ ...form, draftRevision: 2, rowVersion: form.rowVersion + 1 }),
                  Effect.fail(new StaleForm())
                )
              }
            })
          )
        )
        expect(failure).toMatchObject({ _tag: "DraftRevisionConflict", draftRevision: 2 })
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a write that keeps losing races gives up with FormChangedConcurrently", () =>
    asTenant(
      Effect.gen(function* () {
        const forms = yield* FormAuthoring
        const form = yield* forms.create({ kind: "classic", title: "T" })
        let saves = 0
        const failure = yield* failureOf(
          withForms(
            (forms) => forms.patchDefinition(form.id, { definition: question, expectedDraftRevision: 1 }),
            () => ({
              save: () => {
                saves++
                return Effect.fail(new StaleForm())
              }
            })
          )
        )
        expect(failure?._tag).toBe("FormChangedConcurrently")
        expect(saves).toBeGreaterThan(1)
        // Nothing was written: the stored draft is still the first one.
        expect((yield* forms.get(form.id)).draftRevision).toBe(1)
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a slug another form holds is SlugInUse naming it; a malformed one is InvalidSlug", () =>
    asTenant(
      Effect.gen(function* () {
        const forms = yield* FormAuthoring
        const first = yield* forms.create({ kind: "classic", title: "A" })
        const second = yield* forms.create({ kind: "classic", title: "B" })
        expect(yield* failureOf(forms.setSlug(second.id, first.slug))).toMatchObject({
          _tag: "SlugInUse",
          slug: first.slug
        })
        expect(yield* failureOf(forms.setSlug(second.id, "Not A Slug"))).toMatchObject({
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
          const clashOnce = yield* withForms(
            (forms) => forms.create({ kind: "classic", title: "T" }),
            (real) => ({
              insert: (form) => (inserts++ === 0 ? Effect.fail(new SlugTaken(form.slug)) : real.insert(form))
            })
          )
          expect([clashOnce.title, inserts]).toEqual(["T", 2])
          const failure = yield* failureOf(
            withForms(
              (forms) => forms.create({ kind: "classic", title: "T" }),
              () => ({
                insert: (form) => Effect.fail(new SlugTaken(form.slug))
              })
            )
          )
          expect(failure?._tag).toBe("SlugAllocationFailed")
        })
      ).pipe(Effect.provide(ports))
  )
})

/** A published one-question form, its public slug, and a response started on it. */
const startedResponse = (settings?: Record<string, unknown>) =>
  Effect.gen(function* () {
    const forms = yield* FormAuthoring
    const respondent = yield* Respondent
    const created = yield* forms.create({ kind: "classic", title: "T", definition: question })
    const form =
      settings === undefined
        ? created
        : yield* forms.patchSettings(created.id, {
            settings,
            expectedSettingsSignature: created.settingsSignature ?? ""
          })
    yield* forms.publish(form.id, { expectedDraftRevision: form.draftRevision })
    const started = yield* respondent.start(form.slug, {})
    return {
      form,
      slug: form.slug,
      responseId: started.response.id,
      token: started.token,
      continuityToken: started.continuityToken
    }
  })

/** Runs `use` on a Respondent built over the response repository with `update` replaced. */
const withResponses = <A, E, R>(
  use: (respondent: Respondent["Service"]) => Effect.Effect<A, E, R>,
  update: (real: ResponseRepository["Service"]) => ResponseRepository["Service"]["update"]
) =>
  Effect.flatMap(Effect.service(ResponseRepository), (real) =>
    Effect.flatMap(
      Effect.provideService(makeRespondent, ResponseRepository, { ...real, update: update(real) }),
      use
    )
  )

describe("which failure a respondent's save ends with", () => {
  const answers = { blk_00000001: "Ada" }

  it.effect(
    "a completed response without editing is ResponseNotEditable; a foreign token ResponseTokenMismatch",
    () =>
      asTenant(
        Effect.gen(function* () {
          const respondent = yield* Respondent
          const { slug, responseId, token } = yield* startedResponse()
          yield* respondent.save(slug, responseId, token, answers, true)
          expect((yield* failureOf(respondent.save(slug, responseId, token, answers, false)))?._tag).toBe(
            "ResponseNotEditable"
          )
          expect(
            (yield* failureOf(respondent.save(slug, responseId, "not-the-token", answers, false)))?._tag
          ).toBe("ResponseTokenMismatch")
          expect(
            (yield* failureOf(
              respondent.save(slug, "00000000-0000-4000-8000-000000000000", token, answers, false)
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
              (respondent) => respondent.save(slug, responseId, token, { blk_00000001: "Bob" }, false),
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
          withResponses(
            (respondent) => respondent.save(slug, responseId, token, answers, false),
            () => () => {
              updates++
              return Effect.succeed("stale" as const)
            }
          )
        )
        expect(failure?._tag).toBe("ResponseChangedMeanwhile")
        expect(updates).toBeGreaterThan(1)
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("an edit of a completed response that loses is ResponseChangedMeanwhile at once (no retry)", () =>
    asTenant(
      Effect.gen(function* () {
        const respondent = yield* Respondent
        const { slug, responseId, token } = yield* startedResponse({
          submission: { allowResponseEditing: true }
        })
        yield* respondent.save(slug, responseId, token, answers, true)
        let updates = 0
        const failure = yield* failureOf(
          withResponses(
            (respondent) => respondent.save(slug, responseId, token, answers, false),
            () => () => {
              updates++
              return Effect.succeed("stale" as const)
            }
          )
        )
        expect([failure?._tag, updates]).toEqual(["ResponseChangedMeanwhile", 1])
      })
    ).pipe(Effect.provide(ports))
  )
})

describe("which failure a resume ends with", () => {
  const answers = { blk_00000001: "Ada" }
  const browser = (continuityToken?: string) => ({ continuityToken, fingerprint: "" })

  it.effect("without a cookie, with a malformed or another browser's one, it is NothingToResume", () =>
    asTenant(
      Effect.gen(function* () {
        const respondent = yield* Respondent
        const { slug, continuityToken } = yield* startedResponse()
        for (const cookie of [undefined, "", "short", `${continuityToken.slice(1)}!`, "A".repeat(32)]) {
          expect((yield* failureOf(respondent.resume(slug, browser(cookie))))?._tag, cookie).toBe(
            "NothingToResume"
          )
        }
        expect((yield* failureOf(respondent.resume("no-such-form", browser(continuityToken))))?._tag).toBe(
          "PublishedFormNotFound"
        )
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("the resumed response keeps its answers; the rotated-out token is ResponseTokenMismatch", () =>
    asTenant(
      Effect.gen(function* () {
        const respondent = yield* Respondent
        const { slug, responseId, token, continuityToken } = yield* startedResponse()
        yield* respondent.save(slug, responseId, token, answers, false)
        const resumed = yield* respondent.resume(slug, browser(continuityToken))
        expect([resumed.response.id, resumed.response.answers]).toEqual([responseId, answers])
        expect(resumed.token).not.toBe(token)
        expect((yield* failureOf(respondent.save(slug, responseId, token, answers, true)))?._tag).toBe(
          "ResponseTokenMismatch"
        )
        const done = yield* respondent.save(slug, responseId, resumed.token, answers, true)
        expect(done.status).toBe("completed")
        // A completed response is not resumed.
        expect((yield* failureOf(respondent.resume(slug, browser(continuityToken))))?._tag).toBe(
          "NothingToResume"
        )
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a rotation that loses to a completion reads again and finds NothingToResume", () =>
    asTenant(
      Effect.gen(function* () {
        const { slug, continuityToken } = yield* startedResponse()
        let updates = 0
        const failure = yield* failureOf(
          withResponses(
            (respondent) => respondent.resume(slug, browser(continuityToken)),
            (real) => (next, expected) => {
              updates++
              // The old token's completion lands first; this rotation finds its row changed.
              return Effect.as(
                real.update(
                  {
                    ...next,
                    status: "completed",
                    completedAt: next.updatedAt,
                    meta: { ...next.meta, tokenHash: "old" }
                  },
                  expected
                ),
                "stale" as const
              )
            }
          )
        )
        expect([failure?._tag, updates]).toEqual(["NothingToResume", 1])
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("a rotation that loses to saves every time is ResponseChangedMeanwhile after the retries", () =>
    asTenant(
      Effect.gen(function* () {
        const { slug, continuityToken } = yield* startedResponse()
        let updates = 0
        const failure = yield* failureOf(
          withResponses(
            (respondent) => respondent.resume(slug, browser(continuityToken)),
            () => () => {
              updates++
              return Effect.succeed("stale" as const)
            }
          )
        )
        expect(failure?._tag).toBe("ResponseChangedMeanwhile")
        expect(updates).toBeGreaterThan(1)
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
        const responses = yield* FormResponses
        const { formId, responseId } = yield* partial
        expect(
          (yield* failureOf(responses.get(formId, responseId, { fileUrl, partials: "hidden" })))?._tag
        ).toBe("ResponseNotFound")
      })
    ).pipe(Effect.provide(ports))
  )

  it.effect("without responses:partial:read it is InsufficientScope naming both scopes", () =>
    asTenant(
      Effect.gen(function* () {
        const responses = yield* FormResponses
        const { formId, responseId } = yield* partial
        expect(
          yield* failureOf(responses.get(formId, responseId, { fileUrl, partials: "scoped" }))
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
        const responses = yield* FormResponses
        const { formId, responseId } = yield* partial
        expect(
          (yield* failureOf(responses.get(formId, responseId, { fileUrl, partials: "scoped" })))?._tag
        ).toBe("PartialSubmissionsDisabled")
      }),
      { features: { partialSubmissions: false } }
    ).pipe(Effect.provide(ports))
  )
})
