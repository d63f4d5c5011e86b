// Liveness and readiness, outside the versioned API: /healthz answers while the process runs,
// /readyz only while its dependencies (the database) answer.
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { Context, Effect } from "effect"
import { envelopeResponse } from "../middleware.js"
import { InternalError } from "../errors.js"

export class ReadinessCheck extends Context.Tag("@folio/adapters-http/ReadinessCheck")<
  ReadinessCheck,
  { readonly check: Effect.Effect<void, unknown> }
>() {}

export const HealthRoutes = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function* () {
    const readiness = yield* ReadinessCheck
    yield* router.get("/healthz", Effect.succeed(HttpServerResponse.unsafeJson({ status: "ok" })))
    yield* router.get(
      "/readyz",
      readiness.check.pipe(
        Effect.timeout("2 seconds"),
        Effect.as(HttpServerResponse.unsafeJson({ status: "ready" })),
        Effect.catchAllCause((cause) =>
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
