// SharingFiles: uploads and previews as one service over their ports, for the REST handlers.
import { Context, type Effect, Layer } from "effect"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { filePreview, resourcePreview } from "../files/preview.js"
import { uploadFile } from "../files/upload.js"
import { MediaTools } from "../ports/media.js"
import { PasswordHasher } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"

const files = {
  upload: uploadFile,
  preview: resourcePreview,
  /** A stored file's preview for the public pages (no Principal: the page decided who may see it). */
  filePreview
}

export const makeSharingFiles = bindPortsFromContext(
  files,
  ResourceRepository,
  BlobStore,
  MediaTools,
  IdGen,
  PasswordHasher
)

export class SharingFiles extends Context.Service<SharingFiles, Effect.Success<typeof makeSharingFiles>>()(
  "@folio/domain/SharingFiles"
) {}

export const SharingFilesLive = Layer.effect(SharingFiles, makeSharingFiles)
