// The forms use-case services in one layer: what a deployment provides to the forms adapters, built
// over the ports it configured.
import { Layer } from "effect"
import { FormAuthoringLive } from "./authoring.js"
import { InterviewRespondentLive } from "./interview-respondent.js"
import { RespondentLive } from "./respondent.js"
import { FormResponsesLive } from "./responses.js"

export const FormsServicesLive = Layer.mergeAll(
  FormAuthoringLive,
  FormResponsesLive,
  RespondentLive,
  InterviewRespondentLive
)
