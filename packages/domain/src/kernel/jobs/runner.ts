// Port: what the queue's workers run. Each context runs its own job types; the app composes their
// runners into the one the workers use. `schedule` queues periodic work (auto-refreshes) that has
// come due, and is called by every instance's workers (the queue's de-duplication keeps it once).
import { Context, Effect } from "effect"
import type { StorageError } from "../errors.js"
import { InvalidationBus } from "../ports/invalidation-bus.js"
import type { JobRecord } from "./job.js"
import type { JobFailed, JobOutcome } from "./outcome.js"

export interface JobRunnerService {
  readonly run: (job: JobRecord) => Effect.Effect<JobOutcome, JobFailed>
  /** Queues the periodic jobs that are due; answers how many it queued. */
  readonly schedule: Effect.Effect<number, StorageError>
}

export class JobRunner extends Context.Service<JobRunner, JobRunnerService>()("@folio/domain/JobRunner") {}

/** The invalidation-bus topic a queued job is announced on, so idle workers start it at once. */
export const JOBS_TOPIC = "jobs"

/** Tells every instance's idle workers that a job is waiting (a lost message costs one poll). */
export const announceJob = (jobId: string) =>
  Effect.flatMap(Effect.service(InvalidationBus), (bus) => bus.publish(JOBS_TOPIC, jobId)).pipe(Effect.ignore)
