// The forms API's bearer-key security middleware: the shared authentication (key, budgets, budget
// headers, usage) providing the request's Principal, its failures in the forms envelope.
import type { Principal } from "@folio/domain"
import { Effect, Layer } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import { bearerMiddleware } from "../shared/index.js"
import { errorsOf, FormsErrors } from "./errors.js"

export class Authentication extends HttpApiMiddleware.Service<Authentication, { provides: Principal }>()(
  "Authentication",
  {
    error: errorsOf("unauthorized", "forbidden", "rate_limited", "internal"),
    security: { bearer: HttpApiSecurity.bearer }
  }
) {}

export const AuthenticationLive = Layer.effect(
  Authentication,
  Effect.map(bearerMiddleware("forms", FormsErrors), (bearer) => Authentication.of({ bearer }))
)
