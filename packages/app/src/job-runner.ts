// The one JobRunner this instance's workers use: each job type to the runner of the context that
// owns it (the queue holds every context's jobs; a context's runner knows only its own types).
import {
  FormResponses,
  InterviewRespondent,
  makeFormNotifications,
  JobRunner,
  type JobRunnerService,
  type JobType,
  makeSharingJobRunner,
  unknownJobType
} from "@folio/domain"
import { Effect, Layer } from "effect"

/**
 * A runner from one runner per job type: a job goes to its type's runner (a type without one fails
 * without a retry), and `schedule` runs each runner's periodic sweep once, in turn, one failing not
 * holding the others back.
 */
export const jobRunnerOf = (runners: { readonly [T in JobType]?: JobRunnerService }): JobRunnerService => {
  const distinct = [...new Set(Object.values(runners))]
  return JobRunner.of({
    run: (job) => runners[job.type]?.run(job) ?? Effect.fail(unknownJobType(job)),
    schedule: Effect.forEach(distinct, (runner) =>
      runner.schedule.pipe(
        Effect.catch((e) => Effect.as(Effect.logWarning("periodic jobs not queued", e), 0))
      )
    ).pipe(Effect.map((queued) => queued.reduce((sum, n) => sum + n, 0)))
  })
}

export const JobRunnerLive = Layer.effect(
  JobRunner,
  Effect.gen(function* () {
    const sharing = yield* makeSharingJobRunner
    const interviews = yield* InterviewRespondent
    // Interview analyses are queued by the completions themselves: nothing periodic to queue, but
    // the periodic round closes the analyses a dead worker left pending (interview-analysis-sweep.ts).
    const forms = JobRunner.of({
      run: interviews.runAnalysisJob,
      schedule: Effect.as(interviews.closeStuckAnalyses(), 0)
    })
    const responses = yield* FormResponses
    // Insight jobs are queued by the insights route when its answers changed: nothing periodic either.
    const insights = JobRunner.of({ run: responses.runInsightsJob, schedule: Effect.succeed(0) })
    // Notification e-mails likewise: each completion queues its own.
    const notifications = yield* makeFormNotifications
    const mail = JobRunner.of({ run: notifications.runEmailJob, schedule: Effect.succeed(0) })
    return jobRunnerOf({
      optimize_original: sharing,
      notion_refresh: sharing,
      webhook_delivery: sharing,
      interview_analysis: forms,
      form_insights: insights,
      notification_email: mail
    })
  })
)
