// Refused fields of the webhook endpoint routes.
import { Data } from "effect"

/** Why an endpoint URL is not one the service delivers to (the rule's wording). */
export type WebhookUrlProblem =
  | "is too long"
  | "must be an https:// URL"
  | "must not carry credentials"
  | "must not point at a private or local address"
  | "must not point at a local address"

/** An endpoint URL the service will not deliver to. */
export class WebhookUrlRefused extends Data.TaggedError("WebhookUrlRefused")<{
  readonly problem: WebhookUrlProblem
}> {
  get field() {
    return "url"
  }
  get reason() {
    return this.problem
  }
  override get message() {
    return `url: ${this.problem}`
  }
}

/** The account already has as many webhook endpoints as it may. */
export class WebhookEndpointLimitReached extends Data.TaggedError("WebhookEndpointLimitReached")<{
  readonly maxEndpoints: number
}> {
  get field() {
    return "url"
  }
  get reason() {
    return `an account has at most ${this.maxEndpoints} webhook endpoints`
  }
  override get message() {
    return `url: ${this.reason}`
  }
}

export const WEBHOOK_REFUSALS = [WebhookUrlRefused, WebhookEndpointLimitReached] as const
