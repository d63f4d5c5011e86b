// The workers' one JobRunner: each job to its type's runner, a type without one failed for good,
// and every runner's periodic sweep run once per round; sharing's runner refuses other contexts' jobs.
import { jobRunnerOf } from "@folio/app"
import {
  type JobRecord,
  JobRunner,
  type JobRunnerService,
  type JobType,
  makeSharingJobRunner,
  StorageError,
  succeeded
} from "@folio/domain"
import { Context, Effect, References, Result } from "effect"
import { describe, expect, it } from "vitest"

const job = (type: JobType): JobRecord => ({
  id: "0190c5a4-0000-7000-8000-000000000000",
  tenantId: "0190c5a4-0000-7000-8000-000000000001",
  type,
  resourceId: null,
  dedupeKey: type,
  payload: {},
  status: "running",
  attempts: 1,
  maxAttempts: 5,
  runAt: new Date(0),
  leaseOwner: "w",
  leaseExpiresAt: null,
  result: null,
  error: null,
  retryOf: null,
  createdAt: new Date(0),
  startedAt: null,
  finishedAt: null
})

/** A runner that answers its name, and whose sweep queues `scheduled` jobs (or fails). */
const fake = (name: string, scheduled: number | "fails"): JobRunnerService =>
  JobRunner.of({
    run: () => Effect.succeed(succeeded({ by: name })),
    schedule:
      scheduled === "fails" ? Effect.fail(new StorageError({ message: "down" })) : Effect.succeed(scheduled)
  })

const runOf = (runner: JobRunnerService, type: JobType) =>
  Effect.runPromise(Effect.result(runner.run(job(type))))

describe("jobRunnerOf", () => {
  it("runs each job with its type's runner, and fails a type without one for good", async () => {
    const sharing = fake("sharing", 2)
    const forms = fake("forms", 1)
    const runner = jobRunnerOf({
      optimize_original: sharing,
      notion_refresh: sharing,
      interview_analysis: forms
    })
    expect(Result.getOrThrow(await runOf(runner, "notion_refresh"))).toEqual(succeeded({ by: "sharing" }))
    expect(Result.getOrThrow(await runOf(runner, "interview_analysis"))).toEqual(succeeded({ by: "forms" }))
    const unknown = await runOf(runner, "webhook_delivery")
    expect(Result.isFailure(unknown) && unknown.failure).toMatchObject({
      _tag: "JobFailed",
      code: "unknown_job_type",
      retryable: false
    })
  })

  it("runs each runner's sweep once, one failing not holding the others back", async () => {
    const sharing = fake("sharing", 2)
    const runner = jobRunnerOf({
      optimize_original: sharing,
      notion_refresh: sharing,
      webhook_delivery: fake("broken", "fails"),
      interview_analysis: fake("forms", 1)
    })
    const schedule = runner.schedule.pipe(Effect.provideService(References.MinimumLogLevel, "None"))
    expect(await Effect.runPromise(schedule)).toBe(3)
  })
})

describe("sharing's runner", () => {
  it("fails another context's job without a retry", async () => {
    // Its ports are not reached for a type it does not run.
    const runner = await Effect.runPromise(
      makeSharingJobRunner.pipe(
        Effect.provideContext(
          Context.empty() as Context.Context<Effect.Services<typeof makeSharingJobRunner>>
        )
      )
    )
    const outcome = await runOf(runner, "interview_analysis")
    expect(Result.isFailure(outcome) && outcome.failure).toMatchObject({
      _tag: "JobFailed",
      code: "unknown_job_type",
      retryable: false
    })
  })
})
