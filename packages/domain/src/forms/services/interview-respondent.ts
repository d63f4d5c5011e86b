// InterviewRespondent: the use cases of the public interview routes (start, send a message, finish,
// resume after a reload) and the analysis job that finished interviews queue, over the form and
// response ports, the Interviewer, the InterviewSummariser and, when configured, the InterviewAnalyst.
import { Context, type Effect, Layer } from "effect"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { InterviewAnalyst } from "../interview/analysis.js"
import { Interviewer } from "../interview/interviewer.js"
import { InterviewSummariser } from "../interview/summariser.js"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import {
  finishInterview,
  loadPublicInterview,
  readOwnInterview,
  resumeInterview,
  sendInterviewMessage,
  startInterview
} from "../responses/interview-use-cases.js"
import { runInterviewAnalysisJob } from "../responses/interview-analysis-job.js"
import { restartInterview } from "../responses/interview-restart.js"
import { closeStuckInterviewAnalyses } from "../responses/interview-analysis-sweep.js"

const interviewRespondent = {
  /** The published interview at a slug (the chat page renders from it). */
  publicInterview: loadPublicInterview,
  start: startInterview,
  send: sendInterviewMessage,
  finish: finishInterview,
  resume: resumeInterview,
  /** Starts over (experience.allowRestart): a new interview; the one left stays partial. */
  restart: restartInterview,
  /** The respondent's own interview by its token, read only. */
  own: readOwnInterview,
  /** Runs one `interview_analysis` job (the app's job runner dispatches it here). */
  runAnalysisJob: runInterviewAnalysisJob,
  /** Closes analyses left pending by a dead job as failed (the job workers' periodic work). */
  closeStuckAnalyses: closeStuckInterviewAnalyses
}

export const makeInterviewRespondent = bindPortsFromContext(
  interviewRespondent,
  FormRepository,
  ResponseRepository,
  IdGen,
  InvalidationBus,
  Interviewer,
  InterviewAnalyst,
  InterviewSummariser,
  Mailer
)

export class InterviewRespondent extends Context.Service<
  InterviewRespondent,
  Effect.Success<typeof makeInterviewRespondent>
>()("@folio/domain/InterviewRespondent") {}

export const InterviewRespondentLive = Layer.effect(InterviewRespondent, makeInterviewRespondent)
