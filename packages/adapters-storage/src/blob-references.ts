// What both BlobReferences adapters (memory and SQL) decide the same way: which kind of row a key
// would be named by, and which keys a live resource names. Each adapter only fetches the rows.
import {
  deploymentBlobKeys,
  formsBlobKeyOf,
  isPreviewRest,
  sharingBlobKeyOf,
  type StorageError,
  storedResourceBlobKeys
} from "@folio/domain"
import { Effect } from "effect"

/** A live resource and what else names its blobs: its deployments' files, its Notion assets. */
export interface ResourceReferences {
  readonly tenantId: string
  readonly id: string
  readonly data: unknown
  readonly deploymentFiles: ReadonlyArray<ReadonlyArray<{ readonly sha256: string }>>
  readonly notionKeys: ReadonlyArray<string>
}

/** Every key a live resource names (a shared artifact object once per deployment naming it). */
export const resourceKeys = (r: ResourceReferences): ReadonlyArray<string> => [
  ...storedResourceBlobKeys(r.data),
  ...r.deploymentFiles.flatMap((files) => deploymentBlobKeys(r, files)),
  ...r.notionKeys
]

/** The rows an adapter looks up for a batch of keys. */
export interface ReferenceLookups {
  /** Of `keys`, those a response_files row names (`responseIds`: the responses they sit under). */
  readonly responseFileKeys: (
    responseIds: ReadonlyArray<string>,
    keys: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlySet<string>, StorageError>
  /** Of `keys`, those some form of `workspaceId` names (draft, settings or any version). */
  readonly assetKeys: (
    workspaceId: string,
    keys: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlySet<string>, StorageError>
  /** The live resources among `ids`, with what names their blobs. */
  readonly liveResources: (
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<ResourceReferences>, StorageError>
}

const groupBy = <A>(items: ReadonlyArray<A>, keyOf: (a: A) => string) => {
  const groups = new Map<string, Array<A>>()
  for (const item of items) {
    const k = keyOf(item)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [item])
    else group.push(item)
  }
  return groups
}

/**
 * Of `keys`, the referenced ones. A key of no known shape counts as referenced: what this code does
 * not understand is never reported as an orphan, so never deleted.
 */
export const referencedAmong = (
  keys: ReadonlyArray<string>,
  lookups: ReferenceLookups
): Effect.Effect<ReadonlySet<string>, StorageError> =>
  Effect.gen(function* () {
    const named = new Set<string>()
    const responseFiles: Array<{ key: string; responseId: string }> = []
    const assets: Array<{ key: string; workspaceId: string }> = []
    const sharing: Array<{ key: string; resourceId: string; rest: string }> = []
    for (const key of keys) {
      const forms = formsBlobKeyOf(key)
      const shared = forms === undefined ? sharingBlobKeyOf(key) : undefined
      if (forms?.kind === "responseFile") responseFiles.push({ key, responseId: forms.responseId })
      else if (forms?.kind === "asset") assets.push({ key, workspaceId: forms.workspaceId })
      else if (shared !== undefined) sharing.push({ key, ...shared })
      else named.add(key)
    }
    if (responseFiles.length > 0) {
      const found = yield* lookups.responseFileKeys(
        [...new Set(responseFiles.map((f) => f.responseId))],
        responseFiles.map((f) => f.key)
      )
      for (const key of found) named.add(key)
    }
    for (const [workspaceId, group] of groupBy(assets, (a) => a.workspaceId)) {
      const found = yield* lookups.assetKeys(
        workspaceId,
        group.map((a) => a.key)
      )
      for (const key of found) named.add(key)
    }
    if (sharing.length > 0) {
      const live = yield* lookups.liveResources([...new Set(sharing.map((s) => s.resourceId))])
      const byId = new Map(live.map((r) => [r.id, r]))
      const keysOf = new Map<string, ReadonlySet<string>>()
      for (const s of sharing) {
        const resource = byId.get(s.resourceId)
        if (resource === undefined) continue
        let own = keysOf.get(resource.id)
        if (own === undefined) {
          own = new Set(resourceKeys(resource))
          keysOf.set(resource.id, own)
        }
        if (own.has(s.key) || isPreviewRest(s.rest)) named.add(s.key)
      }
    }
    return named
  })
