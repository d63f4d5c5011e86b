// FormAuthoring: the authoring use cases of REST and MCP (create, duplicate, read, patch, slug,
// publication, versions, assets, delete, capabilities) as one service over the form ports.
import { Context, type Effect, Layer } from "effect"
import { TenantRepository } from "../../identity/ports/tenants.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { FormRepository } from "../ports/forms.js"
import * as useCases from "../use-cases.js"

const authoring = {
  capabilities: () => useCases.currentCapabilities,
  /** Warnings to show beside a successful write of the form (notifications this server cannot send). */
  warnings: useCases.writeWarnings,
  list: useCases.listForms,
  get: useCases.loadForm,
  create: useCases.createFormUseCase,
  /** MCP: the same gates as create, refusing a custom script. */
  createWithoutCustomScript: useCases.createFormWithoutCustomScript,
  duplicate: useCases.duplicateFormUseCase,
  patchDefinition: useCases.patchDefinition,
  patchSettings: useCases.patchSettings,
  /** MCP: settings replacement that neither reads nor writes the custom script. */
  patchSettingsKeepingCustomScript: useCases.patchSettingsKeepingCustomScript,
  setSlug: useCases.setFormSlug,
  publish: useCases.publishForm,
  unpublish: useCases.unpublishForm,
  convergePublication: useCases.convergePublication,
  delete: useCases.deleteForm,
  listVersions: useCases.listVersions,
  getVersion: useCases.getVersion,
  uploadAsset: useCases.uploadAsset
}

/** Builds the service over its ports in context (the Live layer; tests build it over fakes). */
export const makeFormAuthoring = bindPortsFromContext(
  authoring,
  FormRepository,
  TenantRepository,
  IdGen,
  BlobStore,
  Mailer
)

export class FormAuthoring extends Context.Service<FormAuthoring, Effect.Success<typeof makeFormAuthoring>>()(
  "@folio/domain/FormAuthoring"
) {}

export const FormAuthoringLive = Layer.effect(FormAuthoring, makeFormAuthoring)
