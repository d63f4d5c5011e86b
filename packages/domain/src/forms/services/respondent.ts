// Respondent: the use cases of the public form routes (no API key): the published form, start,
// resume after a reload, save or complete, file uploads, one's own response read back and the
// published form's images, as one service over the form and response ports.
import { Context, type Effect, Layer } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"
import { loadOwnResponseWithFiles, uploadRespondentFile } from "../responses/files.js"
import { loadPublicImage } from "../responses/images.js"
import { loadPublicForm, resumeResponse, saveAnswers, startResponse } from "../responses/respondent.js"
import { openWithdrawal, withdrawResponse } from "../responses/withdrawal.js"

const respondent = {
  publicForm: loadPublicForm,
  start: startResponse,
  /** This browser's newest partial response on the current version, with a fresh token. */
  resume: resumeResponse,
  /** A save (`complete` false) or a completion. */
  save: saveAnswers,
  uploadFile: uploadRespondentFile,
  /** An image the published form points at (image blocks, choice images, theme logo and cover). */
  publicImage: loadPublicImage,
  /** The respondent's own response (by its token) and the files uploaded to it. */
  ownResponse: loadOwnResponseWithFiles,
  /** The form and response a withdrawal link opens (its confirmation page). */
  openWithdrawal,
  /** The withdrawal link's post: the response and its files deleted. */
  withdraw: withdrawResponse
}

/** Builds the service over its ports in context (the Live layer; tests build it over fakes). */
export const makeRespondent = bindPortsFromContext(
  respondent,
  FormRepository,
  ResponseRepository,
  IdGen,
  BlobStore,
  InvalidationBus,
  Mailer
)

export class Respondent extends Context.Service<Respondent, Effect.Success<typeof makeRespondent>>()(
  "@folio/domain/Respondent"
) {}

export const RespondentLive = Layer.effect(Respondent, makeRespondent)
