// Liveness and readiness, outside the versioned API: /healthz answers while the process runs,
// /readyz only while its dependencies (the database) answer.
import { Context, Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { InternalError } from "../errors.js"
import { envelopeResponse } from "../middleware.js"

export class ReadinessCheck extends Context.Service<
  ReadinessCheck,
  { readonly check: Effect.Effect<void, unknown> }
>()("@folio/adapters-http/ReadinessCheck") {}

export const HealthRoutes = HttpRouter.use((router) =>
  Effect.gen(function* () {
    const readiness = yield* ReadinessCheck
    yield* router.add("GET", "/healthz", HttpServerResponse.jsonUnsafe({ status: "ok" }))
    yield* router.add(
      "GET",
      "/readyz",
      readiness.check.pipe(
        Effect.timeout("2 seconds"),
        Effect.as(HttpServerResponse.jsonUnsafe({ status: "ready" })),
        Effect.catchCause((cause) =>
          Effect.as(
            Effect.logWarning("not ready", cause),
            envelopeResponse(
              new InternalError({ ok: false, error: { code: "internal", message: "not ready" } })
            ).pipe(HttpServerResponse.setStatus(503))
          )
        )
      )
    )
  })
)
