// SharingJobs: the owner's job routes and the routes that queue work (optimize-original, Notion
// refresh) as one service; and the runner of sharing's job types (the app composes it with the
// other contexts' runners into the JobRunner the workers use). A mirror's reads are
// SharingNotionMirrors'.
import { Context, Effect, Layer } from "effect"
import type { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { queueOptimizeOriginal, runOptimizeOriginal } from "../files/optimize-job.js"
import type { JobRecord } from "../../kernel/jobs/job.js"
import { type JobFailed, type JobOutcome, unknownJobType } from "../../kernel/jobs/outcome.js"
import { JobRunner, type JobRunnerService } from "../../kernel/jobs/runner.js"
import { getJob, listJobs, retryJob } from "../jobs/use-cases.js"
import { runNotionRefresh, scheduleNotionRefreshes } from "../notion/refresh-job.js"
import { queueNotionRefresh } from "../notion/use-cases.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import type { MediaTools } from "../ports/media.js"
import { NotionMirrors } from "../ports/notion-mirrors.js"
import { NotionSource } from "../ports/notion-source.js"
import { ResourceRepository } from "../ports/resources.js"
import type { WebhookSender, WebhookStore } from "../ports/webhooks.js"
import { runWebhookDelivery, scheduleWebhookDeliveries } from "../webhooks/delivery-job.js"

const jobs = {
  list: listJobs,
  get: getJob,
  retry: retryJob,
  optimizeOriginal: queueOptimizeOriginal,
  refreshNotion: queueNotionRefresh
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

/** What the job types' use cases need. */
type RunnerPorts =
  | ResourceRepository
  | BlobStore
  | MediaTools
  | NotionMirrors
  | NotionSource
  | IdGen
  | JobQueue
  | InvalidationBus
  | WebhookStore
  | WebhookSender

/**
 * The runner of sharing's job types (SHARING_JOB_TYPES): each to its use case, over the ports in
 * context; a job of any other type fails without a retry. `schedule` queues sharing's periodic work.
 */
export const makeSharingJobRunner: Effect.Effect<JobRunnerService, never, RunnerPorts> = Effect.gen(
  function* () {
    const context = yield* Effect.context<RunnerPorts>()
    const run = (job: JobRecord): Effect.Effect<JobOutcome, JobFailed, RunnerPorts> => {
      switch (job.type) {
        case "optimize_original":
          return runOptimizeOriginal(job)
        case "notion_refresh":
          return runNotionRefresh(job)
        case "webhook_delivery":
          return runWebhookDelivery(job)
        default:
          return Effect.fail(unknownJobType(job))
      }
    }
    return JobRunner.of({
      run: (job) => run(job).pipe(Effect.provideContext(context)),
      // Each sweep on its own: one failing does not hold the other back.
      schedule: Effect.all(
        [
          scheduleNotionRefreshes.pipe(Effect.orElseSucceed(() => 0)),
          scheduleWebhookDeliveries.pipe(Effect.orElseSucceed(() => 0))
        ],
        { concurrency: 1 }
      ).pipe(
        Effect.map(([a, b]) => a + b),
        Effect.provideContext(context)
      )
    })
  }
)
