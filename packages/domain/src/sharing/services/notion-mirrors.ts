// SharingNotionMirrors: the owner's reads of a Notion mirror (its cached pages, one page, its cached
// files) as one service over their ports. Queueing a refresh is a job route (SharingJobs).
import { Context, type Effect, Layer } from "effect"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { notionAssets, notionPage, notionPages } from "../notion/use-cases.js"
import { NotionMirrors } from "../ports/notion-mirrors.js"
import { ResourceRepository } from "../ports/resources.js"

const mirrors = {
  pages: notionPages,
  page: notionPage,
  assets: notionAssets
}

export const makeSharingNotionMirrors = bindPortsFromContext(
  mirrors,
  ResourceRepository,
  NotionMirrors,
  JobQueue
)

export class SharingNotionMirrors extends Context.Service<
  SharingNotionMirrors,
  Effect.Success<typeof makeSharingNotionMirrors>
>()("@folio/domain/SharingNotionMirrors") {}

export const SharingNotionMirrorsLive = Layer.effect(SharingNotionMirrors, makeSharingNotionMirrors)
