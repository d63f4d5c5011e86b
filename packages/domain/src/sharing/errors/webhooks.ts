import { RefusedFieldWith } from "./fields.js"

/** Why an endpoint URL is not one the service delivers to (the rule's wording). */
export type WebhookUrlProblem =
  | "is too long"
  | "must be an https:// URL"
  | "must not carry credentials"
  | "must not point at a private or local address"
  | "must not point at a local address"

/** An endpoint URL the service will not deliver to. */
export class WebhookUrlRefused extends RefusedFieldWith(
  "WebhookUrlRefused",
  "url",
  (e: { readonly problem: WebhookUrlProblem }) => e.problem
) {}

/** The account already has as many webhook endpoints as it may. */
export class WebhookEndpointLimitReached extends RefusedFieldWith(
  "WebhookEndpointLimitReached",
  "url",
  (e: { readonly maxEndpoints: number }) => `an account has at most ${e.maxEndpoints} webhook endpoints`
) {}

export const WEBHOOK_REFUSALS = [WebhookUrlRefused, WebhookEndpointLimitReached] as const
