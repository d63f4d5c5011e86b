// A Markdown page's saved versions: listing them, reading one with its source, and restoring one
// (the replaced source saved as a version, so a restore can be undone).
import { Effect, Option } from "effect"
import { Principal } from "../../identity/principal.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { ResourceChanged, ResourceNotFound } from "../errors.js"
import {
  type MarkdownVersionRecord,
  type MarkdownVersionSummary,
  ResourceRepository
} from "../ports/resources.js"
import { etagMatches, now, ownedBySlug } from "./use-cases.js"

/** The caller's Markdown page at `slug` (another type has no versions: not found). */
const ownedMarkdown = (slug: string) =>
  Effect.flatMap(ownedBySlug(slug), (r) =>
    r.type === "markdown" ? Effect.succeed(r) : Effect.fail(new ResourceNotFound())
  )

/** `GET /resources/{slug}/markdown/versions`: newest first, at most 50. */
export const listMarkdownVersions = (slug: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const page = yield* ownedMarkdown(slug)
    const versions: ReadonlyArray<MarkdownVersionSummary> = yield* repo.listMarkdownVersions(
      principal.tenant,
      page.id
    )
    return versions
  })

/** `GET /resources/{slug}/markdown/versions/{versionID}`: one version with its full source. */
export const getMarkdownVersion = (slug: string, versionId: string) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const page = yield* ownedMarkdown(slug)
    const version = yield* repo.getMarkdownVersion(principal.tenant, page.id, versionId)
    if (Option.isNone(version)) return yield* new ResourceNotFound()
    const record: MarkdownVersionRecord = version.value
    return record
  })

/**
 * `POST /resources/{slug}/markdown/versions/{versionID}/restore`: the version becomes current and the
 * replaced source is saved as a version (so the restore can be undone). With `ifMatch`, only from
 * that state.
 */
export const restoreMarkdownVersion = (slug: string, versionId: string, ifMatch: string | undefined) =>
  Effect.gen(function* () {
    const principal = yield* Principal
    const repo = yield* ResourceRepository
    const ids = yield* IdGen
    const page = yield* ownedMarkdown(slug)
    if (ifMatch !== undefined && !etagMatches(ifMatch, page)) return yield* new ResourceChanged()
    const outcome = yield* repo.restoreMarkdownVersion(principal.tenant, page.id, versionId, {
      id: yield* ids.uuidV7,
      createdAt: yield* now,
      expectedRowVersion: ifMatch === undefined ? undefined : page.rowVersion
    })
    switch (outcome._tag) {
      case "Restored":
        return { resource: outcome.resource, saved: outcome.saved }
      case "Stale":
        return yield* new ResourceChanged()
      case "ResourceNotFound":
      case "VersionNotFound":
        return yield* new ResourceNotFound()
    }
  })
