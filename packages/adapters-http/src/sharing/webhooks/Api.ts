// The webhook routes (sharing-api.md, Webhooks): endpoints (one list), create and rotate (the
// signing secret shown then only), patch, enable, disable, a signed test event, recent attempts;
// and, as extensions of the spec, read one endpoint and delete one.
import {
  CreateWebhookInput,
  PatchWebhookInput,
  WEBHOOK_ATTEMPTS_PAGE,
  WebhookAttemptView,
  WebhookView,
  WebhookWithSecret
} from "@folio/domain"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { SharingAuthentication } from "../auth.js"
import { sharingErrorsOf } from "../errors.js"
import { OptionalIdempotencyKey } from "../idempotent.js"

const Id = { id: Schema.String.check(Schema.isMaxLength(64)) }
const Errors = sharingErrorsOf("insufficient_scope", "not_found", "service_unavailable")
const Writes = [...Errors, ...sharingErrorsOf("etag_mismatch")]

export class WebhooksGroup extends HttpApiGroup.make("webhooks")
  .add(
    HttpApiEndpoint.get("list", "/webhooks", {
      success: Schema.Struct({ items: Schema.Array(WebhookView) }),
      error: Errors
    }).annotate(OpenApi.Summary, "Every webhook endpoint of the account (scope read)"),
    HttpApiEndpoint.post("create", "/webhooks", {
      headers: OptionalIdempotencyKey,
      payload: CreateWebhookInput,
      success: WebhookWithSecret.pipe(HttpApiSchema.status(201)),
      error: [...Errors, ...sharingErrorsOf("idempotency_conflict")]
    }).annotate(
      OpenApi.Summary,
      "Add an HTTPS endpoint; the only time its signing secret is shown (a repeat with the same Idempotency-Key within 24 h shows it again) (scope write)"
    ),
    HttpApiEndpoint.get("get", "/webhooks/:id", {
      params: Id,
      success: WebhookView,
      error: Errors
    })
      .annotate(OpenApi.Summary, "One webhook endpoint, without its signing secret (scope read)")
      .annotate(
        OpenApi.Description,
        "An extension of the spec, which lists endpoints only as one list: reads one endpoint by id."
      ),
    HttpApiEndpoint.delete("delete", "/webhooks/:id", {
      params: Id,
      success: HttpApiSchema.NoContent,
      error: Errors
    })
      .annotate(OpenApi.Summary, "Delete an endpoint, its pending deliveries and attempts (scope delete)")
      .annotate(
        OpenApi.Description,
        "An extension of the spec, which gives no way to remove an endpoint: the endpoint stops at once, " +
          "its pending deliveries and its attempt history go with it, and its place under the limit of " +
          "20 endpoints per account is free again. Its id answers 404 afterwards."
      ),
    HttpApiEndpoint.patch("patch", "/webhooks/:id", {
      params: Id,
      payload: PatchWebhookInput,
      success: WebhookView,
      error: Writes
    }).annotate(OpenApi.Summary, "Change name, URL, events or enabled state (scope write)"),
    HttpApiEndpoint.post("rotateSecret", "/webhooks/:id/rotate-secret", {
      params: Id,
      success: WebhookWithSecret,
      error: Writes
    }).annotate(OpenApi.Summary, "A new signing secret, shown once; the old one stops at once (scope write)"),
    HttpApiEndpoint.post("enable", "/webhooks/:id/enable", {
      params: Id,
      success: WebhookView,
      error: Writes
    }).annotate(OpenApi.Summary, "Turn delivery on and reset the failure count (scope write)"),
    HttpApiEndpoint.post("disable", "/webhooks/:id/disable", {
      params: Id,
      success: WebhookView,
      error: Writes
    }).annotate(
      OpenApi.Summary,
      "Pause delivery; events meanwhile are held for it, for up to about a day (scope write)"
    ),
    HttpApiEndpoint.post("test", "/webhooks/:id/test", {
      params: Id,
      success: WebhookAttemptView,
      error: Errors
    }).annotate(OpenApi.Summary, "Send a signed webhook.test event now and answer how it went (scope write)"),
    HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries", {
      params: Id,
      query: {
        limit: Schema.optionalKey(
          Schema.NumberFromString.check(
            Schema.isInt(),
            Schema.isBetween({ minimum: 1, maximum: WEBHOOK_ATTEMPTS_PAGE.max })
          )
        )
      },
      success: Schema.Struct({ items: Schema.Array(WebhookAttemptView) }),
      error: Errors
    }).annotate(
      OpenApi.Summary,
      "Recent delivery attempts, newest first, with status, latency and failure reason (scope read)"
    )
  )
  .middleware(SharingAuthentication)
  .annotate(OpenApi.Description, "Webhooks: signed events pushed to your HTTPS endpoints") {}
