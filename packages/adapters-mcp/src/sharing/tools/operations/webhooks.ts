// sharing_webhooks: the account's webhook endpoints read (list, one), a signed test event sent, and
// recent delivery attempts, over the SharingWebhooks use cases, each answer the REST route's body.
// Endpoints are created and changed over REST or the console, where the signing secret is shown.
import {
  SharingWebhooks,
  WEBHOOK_ATTEMPTS_PAGE,
  WebhookAttemptView,
  WebhookView,
  webhookAttemptView,
  webhookView
} from "@folio/domain"
import { Effect, Schema } from "effect"
import { sharingTool } from "../../tool.js"
import { need } from "../shared.js"
import { Id } from "./input.js"

const ACTIONS = ["list", "get", "test", "deliveries"] as const
type WebhooksAction = (typeof ACTIONS)[number]

const OPERATION = {
  list: "webhooks.list",
  get: "webhooks.get",
  test: "webhooks.test",
  deliveries: "webhooks.deliveries"
} as const satisfies Record<WebhooksAction, string>

const WebhooksInput = Schema.Struct({
  action: Schema.Literals(ACTIONS).annotate({
    description:
      "list: every webhook endpoint; get: one endpoint without its secret (id); test: send a signed webhook.test event now and answer how it went (id); deliveries: recent delivery attempts, newest first (id; optional limit)"
  }),
  id: Schema.optionalKey(Id.annotate({ description: "the webhook endpoint's id" })),
  limit: Schema.optionalKey(
    Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: WEBHOOK_ATTEMPTS_PAGE.max }))
  )
})

const Attempts = Schema.Struct({ items: Schema.Array(WebhookAttemptView) })

const WebhooksOutput = Schema.Struct({
  action: Schema.Literals(ACTIONS),
  /** list: `GET /webhooks`'s body. */
  webhooks: Schema.optionalKey(Schema.Struct({ items: Schema.Array(WebhookView) })),
  /** get: `GET /webhooks/{id}`'s body. */
  webhook: Schema.optionalKey(WebhookView),
  /** test: the attempt, as `POST /webhooks/{id}/test` answers it. */
  attempt: Schema.optionalKey(WebhookAttemptView),
  /** deliveries: `GET /webhooks/{id}/deliveries`'s body. */
  deliveries: Schema.optionalKey(Attempts)
})

export const webhooksTool = sharingTool({
  name: "sharing_webhooks",
  title: "Webhooks",
  description:
    "Webhook endpoints that receive signed events. action=list answers every endpoint (enabled, events, failure count); get (id) one endpoint; test (id) sends a signed webhook.test event now and answers the attempt (status code, latency, failure reason); deliveries (id; limit) answers recent delivery attempts, newest first. Signing secrets are never shown here.",
  operations: Object.values(OPERATION),
  operationsOf: (input) => [OPERATION[input.action]],
  input: WebhooksInput,
  output: WebhooksOutput,
  run: (input) =>
    Effect.gen(function* () {
      const webhooks = yield* SharingWebhooks
      if (input.action === "list") {
        const all = yield* webhooks.list()
        return { action: input.action, webhooks: { items: all.map(webhookView) } }
      }
      yield* need(input, input.action, ["id"])
      const id = input.id ?? ""
      switch (input.action) {
        case "get":
          return { action: input.action, webhook: webhookView(yield* webhooks.get(id)) }
        case "test":
          return { action: input.action, attempt: webhookAttemptView(yield* webhooks.test(id)) }
        case "deliveries": {
          const items = yield* webhooks.attempts(id, input.limit)
          return { action: input.action, deliveries: { items: items.map(webhookAttemptView) } }
        }
      }
    })
})
