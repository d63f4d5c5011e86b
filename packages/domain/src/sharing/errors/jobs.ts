// Refused fields of the jobs routes: listing and retrying background jobs.
import { RefusedField } from "./fields.js"

/** A job-list cursor that this list did not hand out. */
export class JobCursorUnknown extends RefusedField(
  "JobCursorUnknown",
  "cursor",
  "not a cursor of this list"
) {}

/** A retry of a job that neither failed nor was skipped. */
export class JobNotFailed extends RefusedField(
  "JobNotFailed",
  "id",
  "only a failed or skipped job can be retried"
) {}

/** A retry of a job that belongs to no resource, so nothing could run it again. */
export class JobNotRetryable extends RefusedField("JobNotRetryable", "id", "this job cannot be retried") {}

export const JOB_REFUSALS = [JobCursorUnknown, JobNotFailed, JobNotRetryable] as const
