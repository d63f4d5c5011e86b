// The sharing API's bearer-key security middleware: the shared authentication (key, budgets, budget
// headers, usage) for sharing keys only, its failures in the sharing envelope.
import type { Principal } from "@folio/domain"
import { Effect, Layer } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { bearerMiddleware } from "../shared/index.js"
import { SharingErrors, sharingErrorsOf } from "./errors.js"

export class SharingAuthentication extends HttpApiMiddleware.Service<
  SharingAuthentication,
  { provides: Principal }
>()("SharingAuthentication", {
  error: sharingErrorsOf("invalid_api_key", "user_disabled", "rate_limited", "service_unavailable"),
  security: { bearer: HttpApiSecurity.bearer }
}) {}

export const SharingAuthenticationLive = Layer.effect(
  SharingAuthentication,
  Effect.map(bearerMiddleware("sharing", SharingErrors), (bearer) => SharingAuthentication.of({ bearer }))
)
