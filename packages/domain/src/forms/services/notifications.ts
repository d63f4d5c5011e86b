// FormNotifications: the job that sends a completed response's notification e-mails, over the form
// and response ports, the shared rate-limit counters and (when configured) the Mailer.
import { Context, type Effect, Layer } from "effect"
import { RateLimitStore } from "../../identity/ports/rate-limit-store.js"
import { Mailer } from "../../kernel/ports/mailer.js"
import { bindPortsFromContext } from "../../kernel/use-case-service.js"
import {
  NotificationLinks,
  ReceiptRateLimitPolicy,
  runNotificationEmailJob
} from "../notifications/email-job.js"
import { FormRepository } from "../ports/forms.js"
import { ResponseRepository } from "../ports/responses.js"

const notifications = {
  /** Runs one `notification_email` job (the app's job runner dispatches it here). */
  runEmailJob: runNotificationEmailJob
}

export const makeFormNotifications = bindPortsFromContext(
  notifications,
  FormRepository,
  ResponseRepository,
  RateLimitStore,
  Mailer,
  NotificationLinks,
  ReceiptRateLimitPolicy
)

export class FormNotifications extends Context.Service<
  FormNotifications,
  Effect.Success<typeof makeFormNotifications>
>()("@folio/domain/FormNotifications") {}

export const FormNotificationsLive = Layer.effect(FormNotifications, makeFormNotifications)
