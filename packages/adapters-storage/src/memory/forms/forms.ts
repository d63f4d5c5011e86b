// In-memory FormRepository: the twin of sql/forms/forms.ts (unique live slugs, optimistic saves, versions
// published in the same step as the save).
import { FormRepository, type FormRecord, SlugTaken, StaleForm } from "@folio/domain"
import { Effect, Layer, Option, Result } from "effect"
import { pageDescending } from "../keyset.js"
import { completedCount, MemoryStore, type StoredForm } from "../store.js"

const matchesSearch = (form: FormRecord, search: string | undefined): boolean => {
  if (search === undefined || search === "") return true
  const needle = search.toLowerCase()
  return form.title.toLowerCase().includes(needle) || form.slug.toLowerCase().includes(needle)
}

export const makeFormRepository = Effect.map(Effect.service(MemoryStore), (tables) => {
  const { forms, versions } = tables
  const liveForm = (workspaceId: string, id: string) => {
    const form = forms.get(id)
    return form !== undefined && form.workspaceId === workspaceId && form.deletedAt === null
      ? form
      : undefined
  }
  const slugTakenBy = (slug: string, exceptId: string) =>
    [...forms.values()].some((f) => f.slug === slug && f.deletedAt === null && f.id !== exceptId)
  const strip = ({ deletedAt: _, ...form }: StoredForm): FormRecord => form

  return FormRepository.of({
    insert: (form) =>
      Effect.suspend((): Effect.Effect<void, SlugTaken> => {
        if (slugTakenBy(form.slug, form.id)) return Effect.fail(new SlugTaken(form.slug))
        forms.set(form.id, { ...form, deletedAt: null })
        return Effect.void
      }),
    get: (workspaceId, id) =>
      Effect.sync(() => Option.map(Option.fromNullishOr(liveForm(workspaceId, id)), strip)),
    getBySlug: (slug) =>
      Effect.sync(() =>
        Option.map(
          Option.fromNullishOr([...forms.values()].find((f) => f.slug === slug && f.deletedAt === null)),
          strip
        )
      ),
    list: (workspaceId, query) =>
      Effect.suspend(() => {
        const rows = [...forms.values()].filter(
          (f) =>
            f.workspaceId === workspaceId &&
            f.deletedAt === null &&
            (query.kind === undefined || f.kind === query.kind) &&
            (query.status === undefined || f.status === query.status) &&
            matchesSearch(f, query.search)
        )
        return pageDescending(rows, (f) => [f.updatedAt.getTime(), f.id], ["number", "string"], query).pipe(
          Result.map((page) => ({
            nextCursor: page.nextCursor,
            items: page.items.map((f) => ({
              id: f.id,
              title: f.title,
              slug: f.slug,
              status: f.status,
              kind: f.kind,
              updatedAt: f.updatedAt,
              responseCount: completedCount(tables, f.id)
            }))
          })),
          Effect.fromResult
        )
      }),
    save: (next, publish) =>
      Effect.suspend((): Effect.Effect<void, SlugTaken | StaleForm> => {
        const current = liveForm(next.workspaceId, next.id)
        if (current === undefined || current.rowVersion !== next.rowVersion - 1)
          return Effect.fail(new StaleForm())
        if (slugTakenBy(next.slug, next.id)) return Effect.fail(new SlugTaken(next.slug))
        if (publish !== undefined) {
          const clash = [...versions.values()].some(
            (v) => v.formId === publish.formId && v.version === publish.version
          )
          if (clash || publish.formId !== next.id) return Effect.fail(new StaleForm())
          versions.set(publish.id, publish)
        }
        forms.set(next.id, { ...next, deletedAt: null })
        return Effect.void
      }),
    softDelete: (workspaceId, id, at) =>
      Effect.sync(() => {
        const form = liveForm(workspaceId, id)
        if (form === undefined) return false
        forms.set(id, { ...form, deletedAt: at })
        return true
      }),
    getVersion: (workspaceId, formId, versionId) =>
      Effect.sync(() => {
        const v = versions.get(versionId)
        return Option.fromNullishOr(
          v !== undefined &&
            v.workspaceId === workspaceId &&
            v.formId === formId &&
            liveForm(workspaceId, formId)
            ? v
            : undefined
        )
      }),
    listVersions: (workspaceId, formId, query) =>
      Effect.suspend(() => {
        const rows = liveForm(workspaceId, formId)
          ? [...versions.values()].filter((v) => v.formId === formId && v.workspaceId === workspaceId)
          : []
        return pageDescending(rows, (v) => [v.version], ["number"], query).pipe(
          Result.map((page) => ({
            nextCursor: page.nextCursor,
            items: page.items.map(({ definition: _, ...summary }) => summary)
          })),
          Effect.fromResult
        )
      }),
    withResearchCompliance: () =>
      Effect.sync(() =>
        [...forms.values()]
          .filter(
            (f) =>
              f.deletedAt === null &&
              typeof f.settings === "object" &&
              f.settings !== null &&
              "researchCompliance" in f.settings
          )
          .sort((a, b) => (a.id < b.id ? -1 : 1))
          .map(strip)
      )
  })
})

export const MemoryFormRepositoryLive = Layer.effect(FormRepository, makeFormRepository)
