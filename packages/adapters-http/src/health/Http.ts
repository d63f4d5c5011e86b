// Liveness and readiness, outside the versioned API: /healthz answers while the process runs,
// /readyz only while its dependencies (the database) answer.
import { Context, Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { FormsErrors } from "../forms/errors.js"
import { ServerFault } from "../shared/index.js"

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
          Effect.andThen(
            Effect.logWarning("not ready", cause),
            FormsErrors.respond(new ServerFault({ message: "not ready" }), { status: 503 })
          )
        )
      )
    )
  })
)
