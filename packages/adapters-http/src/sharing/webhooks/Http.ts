// Handlers of the webhook routes: scope, the SharingWebhooks use case, the views.
import {
  SharingIdempotency,
  SharingWebhooks,
  type WebhookEndpointRecord,
  WebhookWithSecret,
  webhookAttemptView,
  webhookView
} from "@folio/domain"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { sharingRoute } from "../route.js"
import { SharingApi } from "../Api.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"

const withSecret = (w: WebhookEndpointRecord) => ({ ...webhookView(w), signing_secret: w.signingSecret })

export const WebhooksLive = HttpApiBuilder.group(SharingApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* SharingWebhooks
    const idempotency = yield* SharingIdempotency
    const write = <E, R>(run: Effect.Effect<WebhookEndpointRecord, E, R>) => Effect.map(run, webhookView)
    return handlers
      .handle("list", () =>
        sharingRoute(
          "webhooks.list",
          Effect.map(webhooks.list(), (all) => ({ items: all.map(webhookView) }))
        )
      )
      .handle("get", ({ params }) =>
        sharingRoute("webhooks.get", Effect.map(webhooks.get(params.id), webhookView))
      )
      .handle("delete", ({ params }) =>
        sharingRoute("webhooks.delete", Effect.asVoid(webhooks.remove(params.id)))
      )
      .handle("create", ({ payload, headers }) =>
        sharingRoute(
          "webhooks.create",
          optionallyIdempotent(
            headers["idempotency-key"],
            Effect.map(webhooks.create(payload), withSecret),
            (key) =>
              idempotency.run(key, { route: "webhook", body: payload }, () =>
                Effect.flatMap(webhooks.create(payload), (made) =>
                  answerAs(WebhookWithSecret, 201, withSecret(made))
                )
              )
          )
        )
      )
      .handle("patch", ({ params, payload }) =>
        sharingRoute("webhooks.patch", write(webhooks.patch(params.id, payload)))
      )
      .handle("rotateSecret", ({ params }) =>
        sharingRoute("webhooks.rotateSecret", Effect.map(webhooks.rotateSecret(params.id), withSecret))
      )
      .handle("enable", ({ params }) => sharingRoute("webhooks.enable", write(webhooks.enable(params.id))))
      .handle("disable", ({ params }) => sharingRoute("webhooks.disable", write(webhooks.disable(params.id))))
      .handle("test", ({ params }) =>
        sharingRoute("webhooks.test", Effect.map(webhooks.test(params.id), webhookAttemptView))
      )
      .handle("deliveries", ({ params, query }) =>
        sharingRoute(
          "webhooks.deliveries",
          Effect.gen(function* () {
            const items = yield* webhooks.attempts(params.id, query.limit)
            return { items: items.map(webhookAttemptView) }
          })
        )
      )
  })
)
