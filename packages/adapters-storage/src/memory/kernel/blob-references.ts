// In-memory BlobReferences: the twin of sql/kernel/blob-references.ts, reading the memory tables.
import { BlobReferences, storedFormImageKeys } from "@folio/domain"
import { Effect, Layer, Stream } from "effect"
import { type ResourceReferences, referencedAmong, resourceKeys } from "../../blob-references.js"
import { type MemoryTables, MemoryStore } from "../store.js"

const referencesOf = (
  tables: MemoryTables,
  r: { tenantId: string; id: string; data: unknown }
): ResourceReferences => ({
  tenantId: r.tenantId,
  id: r.id,
  data: r.data,
  deploymentFiles: [...tables.deployments.values()].filter((d) => d.resourceId === r.id).map((d) => d.files),
  notionKeys: [...tables.notion.assets.values()].filter((a) => a.resourceId === r.id).map((a) => a.blobKey)
})

export const MemoryBlobReferencesLive = Layer.effect(
  BlobReferences,
  Effect.map(Effect.service(MemoryStore), (tables) => {
    const formKeys = (workspaceId?: string) => [
      ...[...tables.forms.values()]
        .filter((f) => workspaceId === undefined || f.workspaceId === workspaceId)
        .flatMap((f) => [...storedFormImageKeys(f.draftDefinition), ...storedFormImageKeys(f.settings)]),
      ...[...tables.versions.values()]
        .filter((v) => workspaceId === undefined || v.workspaceId === workspaceId)
        .flatMap((v) => storedFormImageKeys(v.definition))
    ]
    const live = () => [...tables.resources.values()].filter((r) => r.deletedAt === null)
    return BlobReferences.of({
      referenced: (keys) =>
        referencedAmong(keys, {
          responseFileKeys: (_, wanted) =>
            Effect.sync(() => {
              const stored = new Set([...tables.responseFiles.values()].map((f) => f.key))
              return new Set(wanted.filter((k) => stored.has(k)))
            }),
          assetKeys: (workspaceId, wanted) =>
            Effect.sync(() => {
              const named = new Set(formKeys(workspaceId))
              return new Set(wanted.filter((k) => named.has(k)))
            }),
          liveResources: (ids) =>
            Effect.sync(() => {
              const wanted = new Set(ids)
              return live()
                .filter((r) => wanted.has(r.id))
                .map((r) => referencesOf(tables, r))
            })
        }),
      all: Stream.suspend(() =>
        Stream.fromIterable([
          ...[...tables.responseFiles.values()].map((f) => f.key),
          ...formKeys(),
          ...live().flatMap((r) => resourceKeys(referencesOf(tables, r)))
        ])
      )
    })
  })
)
