// The sharing service's job types: the ones it queues and runs, and the only ones its job routes
// (list, one, retry) show. The queue holds every context's jobs (kernel/jobs).
import { Schema } from "effect"
import type { JobRecord, JobType, NewJob } from "../../kernel/jobs/job.js"

export const SHARING_JOB_TYPES = [
  "optimize_original",
  "notion_refresh",
  "webhook_delivery"
] as const satisfies ReadonlyArray<JobType>

export const SharingJobType = Schema.Literals(SHARING_JOB_TYPES)
export type SharingJobType = typeof SharingJobType.Type

/** A job of one of sharing's types. */
export type SharingJobRecord = JobRecord & { readonly type: SharingJobType }
export type SharingNewJob = NewJob & { readonly type: SharingJobType }

export const isSharingJob = (job: JobRecord): job is SharingJobRecord =>
  (SHARING_JOB_TYPES as ReadonlyArray<JobType>).includes(job.type)
