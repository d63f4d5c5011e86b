// SharingResources: the owner's resource use cases (create, read, list, patch, delete, Markdown
// versions, link simulation) as one service over the sharing ports, for the REST handlers.
import { Context, type Effect, Layer } from "effect"
import { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { BlobStore } from "../../kernel/ports/blob-store.js"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { NotionSource } from "../ports/notion-source.js"
import { PasswordHasher } from "../ports/password-hasher.js"
import { ResourceRepository } from "../ports/resources.js"
import { createLinks } from "../resources/bulk.js"
import * as simulation from "../resources/link-simulation.js"
import * as versions from "../resources/markdown-versions.js"
import * as useCases from "../resources/use-cases.js"

const resources = {
  create: useCases.createResource,
  createLinks,
  get: useCases.getResource,
  list: useCases.listResources,
  update: useCases.updateResource,
  delete: useCases.deleteResource,
  listMarkdownVersions: versions.listMarkdownVersions,
  getMarkdownVersion: versions.getMarkdownVersion,
  restoreMarkdownVersion: versions.restoreMarkdownVersion,
  simulateLink: simulation.simulateLink,
  simulateSavedLink: simulation.simulateSavedLink
}

/** Builds the service over its ports in context (the Live layer; tests build it over fakes). */
export const makeSharingResources = bindPortsFromContext(
  resources,
  ResourceRepository,
  IdGen,
  PasswordHasher,
  RateLimitStore,
  InvalidationBus,
  BlobStore,
  // Creating a Notion mirror checks the server has a token, and queues its first refresh.
  NotionSource,
  JobQueue
)

export class SharingResources extends Context.Service<
  SharingResources,
  Effect.Success<typeof makeSharingResources>
>()("@folio/domain/SharingResources") {}

export const SharingResourcesLive = Layer.effect(SharingResources, makeSharingResources)
