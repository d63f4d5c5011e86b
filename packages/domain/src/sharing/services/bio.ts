// SharingBio: the bio page routes (profile and pages, media, visitor form submissions) as one
// service over their ports, for the REST handlers and the public page.
import { Context, type Effect, Layer } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { submitBioForm } from "../bio/submit.js"
import * as useCases from "../bio/use-cases.js"
import { BioSubmissions } from "../ports/bio-submissions.js"
import { MediaTools } from "../ports/media.js"
import { ResourceRepository } from "../ports/resources.js"
import { SuspendedAccounts } from "../../identity/ports/suspended-accounts.js"

const bio = {
  replace: useCases.replaceBio,
  setMedia: useCases.setBioMedia,
  removeMedia: useCases.removeBioMedia,
  addFileBlock: useCases.addBioFileBlock,
  replaceBlockFile: useCases.replaceBioBlockFile,
  setBlockThumbnail: useCases.setBioBlockThumbnail,
  listSubmissions: useCases.listBioSubmissions,
  exportSubmissions: useCases.exportBioSubmissions,
  deleteSubmission: useCases.deleteBioSubmission,
  submit: submitBioForm
}

export const makeSharingBio = bindPortsFromContext(
  bio,
  ResourceRepository,
  BlobStore,
  MediaTools,
  IdGen,
  BioSubmissions,
  SuspendedAccounts
)

export class SharingBio extends Context.Service<SharingBio, Effect.Success<typeof makeSharingBio>>()(
  "@folio/domain/SharingBio"
) {}

export const SharingBioLive = Layer.effect(SharingBio, makeSharingBio)
