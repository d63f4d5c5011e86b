// sharing_jobs: the account's background jobs (list, one, retry) over the SharingJobs use cases, each
// answer the REST route's body; poll URLs point at the REST API, where any client may poll them.
import {
  JOBS_PAGE,
  JobAccepted,
  JobList,
  JobStatus,
  JobView,
  MAX_CURSOR_LENGTH,
  jobAccepted,
  jobPollUrl,
  jobView,
  SHARING_API_PREFIX,
  type SharingJobRecord,
  SharingJobs,
  SharingJobType
} from "@folio/domain"
import { Clock, Effect, Schema } from "effect"
import { sharingTool } from "../../tool.js"
import { need } from "../shared.js"
import { Id } from "./input.js"

const ACTIONS = ["list", "get", "retry"] as const
type JobsAction = (typeof ACTIONS)[number]

const OPERATION = { list: "jobs.list", get: "jobs.get", retry: "jobs.retry" } as const satisfies Record<
  JobsAction,
  string
>

const JobsInput = Schema.Struct({
  action: Schema.Literals(ACTIONS).annotate({
    description:
      "list: the account's jobs, newest first (optional status, type, cursor, limit); get: one job's status, result or error and the wait before polling again (id); retry: run a failed or skipped job again as a new job (id)"
  }),
  id: Schema.optionalKey(Id.annotate({ description: "the job's id (job_id)" })),
  status: Schema.optionalKey(JobStatus),
  type: Schema.optionalKey(SharingJobType),
  cursor: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(MAX_CURSOR_LENGTH))),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: JOBS_PAGE.max })))
})

const JobsOutput = Schema.Struct({
  action: Schema.Literals(ACTIONS),
  /** list: `GET /jobs`'s body (next_cursor null on the last page). */
  jobs: Schema.optionalKey(JobList),
  /** get: `GET /jobs/{id}`'s body. */
  job: Schema.optionalKey(JobView),
  /** retry: the new job, as `POST /jobs/{id}/retry` answers it. */
  accepted: Schema.optionalKey(JobAccepted)
})

export const jobsTool = sharingTool({
  name: "sharing_jobs",
  title: "Background jobs",
  description:
    "Background jobs (optimizing an original, refreshing a Notion mirror). action=list answers the account's jobs, newest first (filters status, type; page with cursor = next_cursor and limit); get (id) answers a job's status, attempts, result or error, and retry_after_seconds: wait that long before reading it again; retry (id) runs a failed or skipped job again as a new job and answers the new job's id.",
  operations: Object.values(OPERATION),
  operationsOf: (input) => [OPERATION[input.action]],
  input: JobsInput,
  output: JobsOutput,
  run: (input, { publicOrigin }) =>
    Effect.gen(function* () {
      const jobs = yield* SharingJobs
      const pollUrl = (job: SharingJobRecord) => jobPollUrl(publicOrigin, SHARING_API_PREFIX, job.id)
      switch (input.action) {
        case "list": {
          const page = yield* jobs.list({
            status: input.status,
            type: input.type,
            cursor: input.cursor,
            limit: input.limit
          })
          const ms = yield* Clock.currentTimeMillis
          return {
            action: input.action,
            jobs: { items: page.items.map((j) => jobView(j, pollUrl(j), ms)), next_cursor: page.nextCursor }
          }
        }
        case "get": {
          yield* need(input, input.action, ["id"])
          const job = yield* jobs.get(input.id ?? "")
          return { action: input.action, job: jobView(job, pollUrl(job), yield* Clock.currentTimeMillis) }
        }
        case "retry": {
          yield* need(input, input.action, ["id"])
          const job = yield* jobs.retry(input.id ?? "")
          return {
            action: input.action,
            accepted: jobAccepted(job, pollUrl(job), yield* Clock.currentTimeMillis)
          }
        }
      }
    })
})
