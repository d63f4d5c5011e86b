// The form aggregate as a state machine, driven by random command sequences against a simple model:
// versions are numbered 1..n without gaps, published versions never change, draftRevision never
// decreases and moves exactly on definition writes, stale tokens always conflict with the current
// token in details, empty forms never publish.
import {
  type Capabilities,
  createForm,
  duplicateForm,
  evaluateCapabilities,
  FORMS_SCOPES,
  type FormRecord,
  type FormVersionRecord,
  publish,
  replaceDefinition,
  replaceSettings,
  requiredScopes,
  setSlug,
  toFormView,
  unpublish
} from "@folio/domain"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { blk } from "../support/builders.js"

const caps = evaluateCapabilities({}, [...FORMS_SCOPES])
const at = (n: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, n))
const withInput = { schemaVersion: 1, blocks: [{ id: blk(1), type: "short_text", label: "Q" }] }
const emptyDef = { schemaVersion: 1, blocks: [{ id: blk(1), type: "statement", label: "Hi" }] }

const newForm = (kind: "classic" | "interview" = "classic"): FormRecord =>
  Result.getOrThrow(
    createForm({ id: "f1", workspaceId: "w1", slug: "my-form", kind, title: "T" }, caps, at(0))
  )

type Command =
  | { readonly _tag: "patch"; readonly stale: boolean; readonly content: boolean }
  | { readonly _tag: "settings"; readonly stale: boolean; readonly locale: "en" | "ko" | "ja" }
  | { readonly _tag: "publish"; readonly stale: boolean }
  | { readonly _tag: "unpublish"; readonly stale: boolean }
  | { readonly _tag: "slug"; readonly slug: string }

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ _tag: fc.constant("patch" as const), stale: fc.boolean(), content: fc.boolean() }),
  fc.record({
    _tag: fc.constant("settings" as const),
    stale: fc.boolean(),
    locale: fc.constantFrom("en" as const, "ko" as const, "ja" as const)
  }),
  fc.record({ _tag: fc.constant("publish" as const), stale: fc.boolean() }),
  fc.record({ _tag: fc.constant("unpublish" as const), stale: fc.boolean() }),
  fc.record({
    _tag: fc.constant("slug" as const),
    slug: fc.constantFrom("ok-slug", "Bad Slug", "x", "another-one")
  })
)

describe("publication state machine", () => {
  it("keeps every invariant under random command sequences", () => {
    fc.assert(
      fc.property(fc.array(command, { maxLength: 40 }), (commands) => {
        let form = newForm()
        const versions: Array<FormVersionRecord> = []
        const snapshots = new Map<string, string>()
        commands.forEach((cmd, step) => {
          const now = at(step + 1)
          const before = form
          const token = (stale: boolean) => (stale ? form.draftRevision + 1 + (step % 3) : form.draftRevision)
          switch (cmd._tag) {
            case "patch": {
              const r = replaceDefinition(
                form,
                { definition: cmd.content ? withInput : emptyDef, expectedDraftRevision: token(cmd.stale) },
                caps,
                now
              )
              if (cmd.stale) {
                // The conflict names the current revision, so the caller can re-read and re-apply.
                expect(Result.isFailure(r) && r.failure).toMatchObject({
                  _tag: "DraftRevisionConflict",
                  draftRevision: before.draftRevision
                })
              } else {
                form = Result.getOrThrow(r)
                expect(form.draftRevision).toBe(before.draftRevision + 1)
              }
              break
            }
            case "settings": {
              const expected = cmd.stale ? `sha256:${"0".repeat(64)}` : (form.settingsSignature ?? "")
              const r = replaceSettings(
                form,
                { settings: { locale: cmd.locale }, expectedSettingsSignature: expected },
                caps,
                now
              )
              if (cmd.stale) {
                expect(Result.isFailure(r) && r.failure).toMatchObject({
                  _tag: "SettingsSignatureConflict",
                  settingsSignature: before.settingsSignature
                })
              } else {
                form = Result.getOrThrow(r)
                expect(form.draftRevision).toBe(before.draftRevision)
              }
              break
            }
            case "publish": {
              const r = publish(
                form,
                { expectedDraftRevision: token(cmd.stale) },
                { now, versionId: `v${step}` }
              )
              const empty =
                toFormView(form).draftDefinition !== null &&
                !JSON.stringify(form.draftDefinition).includes("short_text")
              // A stale token is judged before the content: the revision conflict wins.
              if (cmd.stale) expect(Result.isFailure(r) && r.failure._tag).toBe("DraftRevisionConflict")
              else if (empty) expect(Result.isFailure(r) && r.failure._tag).toBe("NothingToPublish")
              else {
                const { form: next, version } = Result.getOrThrow(r)
                versions.push(version)
                snapshots.set(version.id, JSON.stringify(version))
                form = next
                expect(form.status).toBe("published")
                expect(form.currentVersionId).toBe(version.id)
                expect(version.definition).toEqual(before.draftDefinition)
              }
              break
            }
            case "unpublish": {
              const r = unpublish(form, { expectedDraftRevision: token(cmd.stale) }, now)
              if (cmd.stale) expect(Result.isFailure(r) && r.failure._tag).toBe("DraftRevisionConflict")
              else {
                form = Result.getOrThrow(r)
                expect(form.status).toBe("draft")
              }
              break
            }
            case "slug": {
              const r = setSlug(form, cmd.slug, now)
              const valid = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){2,63}$/.test(cmd.slug)
              expect(Result.isSuccess(r)).toBe(valid)
              if (valid) form = Result.getOrThrow(r)
              break
            }
          }
          // Invariants after every step.
          expect(form.draftRevision).toBeGreaterThanOrEqual(before.draftRevision)
          if (cmd._tag !== "patch") expect(form.draftRevision).toBe(before.draftRevision)
          expect(form.rowVersion === before.rowVersion || form.rowVersion === before.rowVersion + 1).toBe(
            true
          )
          if (form !== before) expect(form.rowVersion).toBe(before.rowVersion + 1)
        })
        expect(versions.map((v) => v.version)).toEqual(versions.map((_, i) => i + 1))
        expect(form.versionCount).toBe(versions.length)
        for (const v of versions) expect(JSON.stringify(v)).toBe(snapshots.get(v.id))
      }),
      { numRuns: 200 }
    )
  })

  it("never publishes an empty form (classic without input blocks, interview without fields or goals)", () => {
    const classic = newForm()
    expect(
      Result.isFailure(publish(classic, { expectedDraftRevision: 1 }, { now: at(1), versionId: "v" }))
    ).toBe(true)
    const interview = newForm("interview")
    const r = publish(interview, { expectedDraftRevision: 1 }, { now: at(1), versionId: "v" })
    expect(Result.isFailure(r) && r.failure).toMatchObject({ _tag: "NothingToPublish", kind: "interview" })
    const withGoal = Result.getOrThrow(
      replaceDefinition(
        interview,
        {
          definition: {
            goals: [{ id: "g", labelByLocale: { en: "G" }, publicPromptHintByLocale: { en: "Ask" } }]
          },
          expectedDraftRevision: 1
        },
        caps,
        at(2)
      )
    )
    expect(
      Result.isSuccess(publish(withGoal, { expectedDraftRevision: 2 }, { now: at(3), versionId: "v" }))
    ).toBe(true)
  })

  it("republishing always creates the next version, even without changes", () => {
    const draft = Result.getOrThrow(
      replaceDefinition(newForm(), { definition: withInput, expectedDraftRevision: 1 }, caps, at(1))
    )
    const first = Result.getOrThrow(
      publish(draft, { expectedDraftRevision: 2 }, { now: at(2), versionId: "a" })
    )
    const second = Result.getOrThrow(
      publish(first.form, { expectedDraftRevision: 2 }, { now: at(3), versionId: "b" })
    )
    expect([first.version.version, second.version.version]).toEqual([1, 2])
  })
})

describe("capabilities and gates", () => {
  const restricted: Capabilities = evaluateCapabilities(
    { fileUpload: false, interview: false, document: false, matrix: false },
    ["forms:read"]
  )

  it("evaluates the workspace's flags over the defaults, exposing only allowlisted features", () => {
    const c = evaluateCapabilities({ ranking: false, secretOpsFlag: true }, ["forms:read", "bogus"])
    expect(c.scopes).toEqual(["forms:read"])
    expect(c.blockTypes.find((b) => b.type === "ranking")).toEqual({
      type: "ranking",
      enabled: false,
      requiredFeature: "ranking"
    })
    expect(c.blockTypes).toHaveLength(23)
    expect(c.features).not.toHaveProperty("secretOpsFlag")
    expect(c.formKinds.classic).toBe(true)
  })

  it("rejects disabled kinds, features and render modes, each naming what is disabled", () => {
    const kind = createForm(
      { id: "f", workspaceId: "w", slug: "abc", kind: "interview", title: "T" },
      restricted,
      at(0)
    )
    expect(Result.isFailure(kind) && kind.failure).toMatchObject({
      _tag: "FormKindDisabled",
      kind: "interview"
    })
    const upload = { schemaVersion: 1, blocks: [{ id: blk(1), type: "file_upload", label: "CV" }] }
    const feature = createForm(
      { id: "f", workspaceId: "w", slug: "abc", kind: "classic", title: "T", definition: upload },
      restricted,
      at(0)
    )
    expect(Result.isFailure(feature) && feature.failure).toMatchObject({
      _tag: "FeaturesDisabled",
      features: ["file_upload"]
    })
    const mode = createForm(
      {
        id: "f",
        workspaceId: "w",
        slug: "abc",
        kind: "classic",
        title: "T",
        settings: { renderMode: "document" }
      },
      restricted,
      at(0)
    )
    expect(Result.isFailure(mode) && mode.failure).toMatchObject({
      _tag: "RenderModeDisabled",
      mode: "document"
    })
    const source = Result.getOrThrow(
      createForm(
        { id: "s", workspaceId: "w", slug: "src", kind: "classic", title: "T", definition: upload },
        caps,
        at(0)
      )
    )
    const copy = duplicateForm(source, { id: "c", slug: "copy" }, restricted, at(1))
    expect(Result.isFailure(copy) && copy.failure._tag).toBe("FeaturesDisabled")
    expect(Result.getOrThrow(duplicateForm(source, { id: "c", slug: "copy" }, caps, at(1)))).toMatchObject({
      status: "draft",
      draftRevision: 1,
      title: "T (copy)"
    })
  })

  it("names the scopes each operation needs", () => {
    expect(requiredScopes("duplicateForm")).toEqual(["forms:write", "forms:read"])
    expect(requiredScopes("listPartialResponses")).toEqual(["responses:read", "responses:partial:read"])
    expect(requiredScopes("publish")).toEqual(["forms:publish"])
    expect(requiredScopes("uploadAsset")).toEqual(["assets:write"])
    expect(requiredScopes("downloadFile")).toEqual(["files:read"])
    expect(requiredScopes("capabilities")).toEqual([])
  })
})
