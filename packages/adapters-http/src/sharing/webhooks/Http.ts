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
import { requireScopes } from "../../shared/index.js"
import { SharingApi } from "../Api.js"
import { SharingErrors } from "../errors.js"
import { answerAs, optionallyIdempotent } from "../idempotent.js"

const withSecret = (w: WebhookEndpointRecord) => ({ ...webhookView(w), signing_secret: w.signingSecret })

export const WebhooksLive = HttpApiBuilder.group(SharingApi, "webhooks", (handlers) =>
  Effect.gen(function* () {
    const webhooks = yield* SharingWebhooks
    const idempotency = yield* SharingIdempotency
    const write = <E, R>(run: Effect.Effect<WebhookEndpointRecord, E, R>) => Effect.map(run, webhookView)
    return handlers
      .handle("list", () =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          return { items: (yield* webhooks.list()).map(webhookView) }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("get", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          return webhookView(yield* webhooks.get(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("delete", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("delete")
          yield* webhooks.remove(params.id)
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("create", ({ payload, headers }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* optionallyIdempotent(
            headers["idempotency-key"],
            Effect.map(webhooks.create(payload), withSecret),
            (key) =>
              idempotency.run(key, { route: "webhook", body: payload }, () =>
                Effect.flatMap(webhooks.create(payload), (made) =>
                  answerAs(WebhookWithSecret, 201, withSecret(made))
                )
              )
          )
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("patch", ({ params, payload }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* write(webhooks.patch(params.id, payload))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("rotateSecret", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return withSecret(yield* webhooks.rotateSecret(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("enable", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* write(webhooks.enable(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("disable", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return yield* write(webhooks.disable(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("test", ({ params }) =>
        Effect.gen(function* () {
          yield* requireScopes("write")
          return webhookAttemptView(yield* webhooks.test(params.id))
        }).pipe(Effect.catch(SharingErrors.fail))
      )
      .handle("deliveries", ({ params, query }) =>
        Effect.gen(function* () {
          yield* requireScopes("read")
          const items = yield* webhooks.attempts(params.id, query.limit)
          return { items: items.map(webhookAttemptView) }
        }).pipe(Effect.catch(SharingErrors.fail))
      )
  })
)
