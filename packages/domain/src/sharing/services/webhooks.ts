// SharingWebhooks: the owner's webhook routes as one service over their ports.
import { Context, type Effect, Layer } from "effect"
import { IdGen } from "../../kernel/ports/id-gen.js"
import { InvalidationBus } from "../../kernel/ports/invalidation-bus.js"
import { JobQueue } from "../../kernel/ports/jobs.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import { WebhookSender, WebhookStore } from "../ports/webhooks.js"
import * as useCases from "../webhooks/use-cases.js"

const webhooks = {
  create: useCases.createWebhook,
  list: () => useCases.listWebhooks,
  get: useCases.getWebhook,
  remove: useCases.deleteWebhook,
  patch: useCases.patchWebhook,
  rotateSecret: useCases.rotateWebhookSecret,
  enable: useCases.enableWebhook,
  disable: useCases.disableWebhook,
  test: useCases.testWebhook,
  attempts: useCases.webhookAttempts
}

export const makeSharingWebhooks = bindPortsFromContext(
  webhooks,
  WebhookStore,
  WebhookSender,
  IdGen,
  JobQueue,
  InvalidationBus
)

export class SharingWebhooks extends Context.Service<
  SharingWebhooks,
  Effect.Success<typeof makeSharingWebhooks>
>()("@folio/domain/SharingWebhooks") {}

export const SharingWebhooksLive = Layer.effect(SharingWebhooks, makeSharingWebhooks)
