// FormAuthoring over fake ports (test/support/fake-layer.ts; no storage adapter): the Live layer
// binds the ports once, so a use case needs only the caller's Principal, and its decisions (a stale
// draft revision is refused before anything is written; a publish writes the form and its first
// version in one save) can be observed on the ports themselves.
import {
  BlobStore,
  type FormRecord,
  FormAuthoring,
  FormAuthoringLive,
  FormRepository,
  type FormVersionRecord,
  FORMS_SCOPES,
  IdGen,
  Principal,
  TenantRepository
} from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { describe, expect } from "vitest"
import { fakeLayer } from "../support/fake-layer.js"

const TENANT = "00000000-0000-7000-8000-000000000001"
const question = { schemaVersion: 1, blocks: [{ id: "blk_00000001", type: "short_text", label: "Name" }] }

/** Fake ports over one in-memory table, recording every save the use cases make. */
const fakePorts = () => {
  const forms = new Map<string, FormRecord>()
  const saves: Array<{ readonly form: FormRecord; readonly version?: FormVersionRecord | undefined }> = []
  let ids = 0
  const layer = Layer.mergeAll(
    fakeLayer(FormRepository, {
      insert: (form) => Effect.sync(() => void forms.set(form.id, form)),
      get: (workspaceId, id) =>
        Effect.succeed(
          Option.filter(Option.fromNullishOr(forms.get(id)), (f) => f.workspaceId === workspaceId)
        ),
      save: (form, version) =>
        Effect.sync(() => {
          saves.push({ form, version })
          forms.set(form.id, form)
        })
    }),
    fakeLayer(TenantRepository, {
      get: (id) =>
        Effect.succeed(
          Option.some({
            id,
            name: "Acme",
            features: {},
            createdAt: new Date(0),
            disabledAt: null,
            memberKeyScopes: {}
          })
        )
    }),
    fakeLayer(IdGen, {
      uuid: Effect.sync(() => `00000000-0000-4000-8000-${String(++ids).padStart(12, "0")}`),
      uuidV7: Effect.sync(() => `00000000-0000-7000-8000-${String(++ids).padStart(12, "0")}`),
      randomBytes: (n) => Effect.sync(() => new Uint8Array(n).fill(++ids))
    }),
    fakeLayer(BlobStore, {})
  )
  return { saves, layer: FormAuthoringLive.pipe(Layer.provide(layer)) }
}

/** Runs `use` on the service as a forms key of the fake tenant. */
const asCaller = <A, E>(use: (forms: FormAuthoring["Service"]) => Effect.Effect<A, E, Principal>) =>
  FormAuthoring.use(use).pipe(
    Effect.provideService(Principal, { tenant: TENANT, service: "forms", scopes: FORMS_SCOPES, keyId: "key" })
  )

describe("FormAuthoring over fake ports", () => {
  it.effect(
    "a publish with a stale draft revision is refused with the current one, and nothing is saved",
    () => {
      const ports = fakePorts()
      return asCaller((forms) =>
        Effect.gen(function* () {
          const form = yield* forms.create({ kind: "classic", title: "T", definition: question })
          const failure = yield* Effect.flip(
            forms.publish(form.id, { expectedDraftRevision: form.draftRevision + 1 })
          )
          expect(failure).toMatchObject({ _tag: "DraftRevisionConflict", draftRevision: form.draftRevision })
          expect(ports.saves).toEqual([])
        })
      ).pipe(Effect.provide(ports.layer))
    }
  )

  it.effect("a publish with the current revision saves the form together with its first version", () => {
    const ports = fakePorts()
    return asCaller((forms) =>
      Effect.gen(function* () {
        const form = yield* forms.create({ kind: "classic", title: "T", definition: question })
        const published = yield* forms.publish(form.id, { expectedDraftRevision: form.draftRevision })
        expect(ports.saves).toHaveLength(1)
        expect(ports.saves[0]?.version).toMatchObject({ formId: form.id, version: 1, definition: question })
        expect(published).toMatchObject({
          status: "published",
          currentVersionId: ports.saves[0]?.version?.id
        })
      })
    ).pipe(Effect.provide(ports.layer))
  })
})
