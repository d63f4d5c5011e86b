// SharingJobs: the owner's job routes and the routes that queue work (optimize-original, Notion
// refresh) with the Notion mirror reads, as one service; and the sharing JobRunner the workers use.
import { Context, Effect, Layer } from "effect"
import type { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { queueOptimizeOriginal, runOptimizeOriginal } from "../files/optimize-job.js"
import { JobRunner } from "../jobs/runner.js"
import { getJob, listJobs, retryJob } from "../jobs/use-cases.js"
import {
  notionAssets,
  notionPage,
  notionPages,
  queueNotionRefresh,
  runNotionRefresh,
  scheduleNotionRefreshes
} from "../notion/mirror.js"
import { JobQueue } from "../ports/jobs.js"
import type { MediaTools } from "../ports/media.js"
import { NotionMirrors } from "../ports/notion-mirrors.js"
import { NotionSource } from "../ports/notion-source.js"
import { ResourceRepository } from "../ports/resources.js"

const jobs = {
  list: listJobs,
  get: getJob,
  retry: retryJob,
  optimizeOriginal: queueOptimizeOriginal,
  refreshNotion: queueNotionRefresh,
  notionPages,
  notionPage,
  notionAssets
}

export const makeSharingJobs = bindPortsFromContext(
  jobs,
  JobQueue,
  IdGen,
  InvalidationBus,
  ResourceRepository,
  NotionMirrors,
  NotionSource
)

export class SharingJobs extends Context.Service<SharingJobs, Effect.Success<typeof makeSharingJobs>>()(
  "@folio/domain/SharingJobs"
) {}

export const SharingJobsLive = Layer.effect(SharingJobs, makeSharingJobs)

/** The workers' runner: each job type to its use case, over the ports in context. */
export const SharingJobRunnerLive = Layer.effect(
  JobRunner,
  Effect.gen(function* () {
    const context = yield* Effect.context<
      | ResourceRepository
      | BlobStore
      | MediaTools
      | NotionMirrors
      | NotionSource
      | IdGen
      | JobQueue
      | InvalidationBus
    >()
    return JobRunner.of({
      run: (job) =>
        (job.type === "optimize_original" ? runOptimizeOriginal(job) : runNotionRefresh(job)).pipe(
          Effect.provideContext(context)
        ),
      schedule: scheduleNotionRefreshes.pipe(Effect.provideContext(context))
    })
  })
)
