// Port: the durable job queue. Jobs are rows: queued in the transaction of the change that causes
// them, claimed under leases that lapse when a worker dies, and finished only by their lease holder.
import { Context, type Effect, type Option } from "effect"
import type { InvalidCursor, Page } from "../cursor.js"
import type { StorageError } from "../errors.js"
import type { JobRecord, JobStatus, JobType, NewJob } from "../jobs/job.js"
import type { JobCompletion } from "../jobs/outcome.js"

/** A job with the same dedupe key is queued or running: nothing was queued. */
export class JobAlreadyActive {
  readonly _tag = "JobAlreadyActive"
  constructor(readonly activeJobId: string | null) {}
}

export interface JobListQuery {
  readonly limit: number
  readonly cursor?: string | undefined
  readonly status?: JobStatus | undefined
  readonly type?: JobType | undefined
  /** Only jobs of these types (a context's own); every type when omitted. */
  readonly types?: ReadonlyArray<JobType> | undefined
}

export interface JobQueueService {
  /** Queues a job (JobAlreadyActive when the same work is queued or running). */
  readonly enqueue: (job: NewJob) => Effect.Effect<JobRecord, JobAlreadyActive | StorageError>
  readonly get: (tenantId: string, id: string) => Effect.Effect<Option.Option<JobRecord>, StorageError>
  /** The tenant's jobs, newest first (`type` and `types` both apply when both are given). */
  readonly list: (
    tenantId: string,
    query: JobListQuery
  ) => Effect.Effect<Page<JobRecord>, InvalidCursor | StorageError>
  /** The tenant's newest job on a resource of a type, whatever its status. */
  readonly latestFor: (
    tenantId: string,
    resourceId: string,
    type: JobType
  ) => Effect.Effect<Option.Option<JobRecord>, StorageError>
  /**
   * Claims up to `limit` due jobs for `worker` (each concurrent claimer gets different ones), each
   * under a lease of `leaseMs` and counted as an attempt. Running jobs whose lease has lapsed are
   * first put back in the queue (or failed, when that was their last attempt).
   */
  readonly claim: (
    worker: string,
    limit: number,
    leaseMs: number
  ) => Effect.Effect<ReadonlyArray<JobRecord>, StorageError>
  /** Extends the leases `worker` still holds; answers the ids it no longer holds. */
  readonly renew: (
    worker: string,
    ids: ReadonlyArray<string>,
    leaseMs: number
  ) => Effect.Effect<ReadonlyArray<string>, StorageError>
  /** Finishes (or requeues for a retry) a job `worker` holds; false when it no longer holds it. */
  readonly complete: (
    worker: string,
    id: string,
    completion: JobCompletion
  ) => Effect.Effect<boolean, StorageError>
  /** Puts jobs `worker` holds back in the queue at once, their attempt not counted (shutdown). */
  readonly release: (worker: string, ids: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
  /** How many jobs are queued and running, by type and status, over every tenant (for metrics). */
  readonly depth: () => Effect.Effect<ReadonlyArray<JobDepth>, StorageError>
}

export interface JobDepth {
  readonly type: JobType
  readonly status: "queued" | "running"
  readonly count: number
}

export class JobQueue extends Context.Service<JobQueue, JobQueueService>()("@folio/domain/JobQueue") {}
