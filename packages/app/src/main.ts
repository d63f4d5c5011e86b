// The server: `npm start`. Reads configuration, opens storage (embedded PGlite by default), serves
// HTTP, and on first start with an empty embedded database prints a full-scope key once.
import { NodeRuntime } from "@effect/platform-node"
import { bootstrapIfEmpty, FORMS_SCOPE_SET, SHARING_SCOPE_SET } from "@folio/domain"
import { Effect, Layer, Logger, Option, References } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { appLayer } from "./app-layer.js"
import { AppConfig } from "./config.js"
import { reportFailure, StartupError, teardown } from "./failure.js"
import { logLevelOf, redactedJsonLogger } from "./logging.js"

const announce = (config: AppConfig) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const address = NetAddress.formatSocketAddress(server.address)
      yield* Effect.logInfo("listening").pipe(
        Effect.annotateLogs({
          address,
          publicOrigin: config.publicOrigin,
          embedded: Option.isNone(config.databaseUrl)
        })
      )
      // Said once at start: notifications set up on this server are accepted but not e-mailed.
      if (Option.isNone(config.smtpUrl))
        yield* Effect.logWarning("notification e-mail is off: SMTP_URL is not set, so no e-mail is sent")
      // Only the embedded database bootstraps itself; a real server is provisioned with the CLI.
      if (Option.isSome(config.databaseUrl)) return
      const created = yield* bootstrapIfEmpty({
        tenantName: "Default workspace",
        scopeSets: [FORMS_SCOPE_SET, SHARING_SCOPE_SET]
      })
      if (Option.isNone(created)) return
      const { keys, tenant: workspace } = created.value
      const [forms, sharing] = keys
      const lines = [
        "",
        `Folio created workspace "${workspace.name}" (${workspace.id}) and an API key per service, each with every scope.`,
        "They are shown only this once; store them now:",
        "",
        `  forms:   ${forms?.plaintext ?? ""}`,
        `  sharing: ${sharing?.plaintext ?? ""}`,
        "",
        "Try them:",
        `  curl -H "Authorization: Bearer ${forms?.plaintext ?? ""}" ${config.publicOrigin}/forms/api/v1/capabilities`,
        `  curl -H "Authorization: Bearer ${sharing?.plaintext ?? ""}" ${config.publicOrigin}/share/api/v1/me`,
        ""
      ]
      yield* Effect.sync(() => process.stdout.write(`${lines.join("\n")}\n`))
    })
  )

const program = Effect.gen(function* () {
  const config = yield* AppConfig
  const app = appLayer(config)
  yield* Layer.launch(announce(config).pipe(Layer.provide(app))).pipe(
    // The platform's ServeError has an empty message; the socket error under it says why.
    Effect.catchTag("ServeError", (error) =>
      Effect.fail(
        new StartupError({
          message: `cannot listen on ${config.host}:${config.port} (HOST, PORT)`,
          cause: error.cause
        })
      )
    ),
    Effect.provideService(References.MinimumLogLevel, logLevelOf(config.logLevel))
  )
}).pipe(Effect.catchCause(reportFailure), Effect.provide(Logger.layer([redactedJsonLogger])))

NodeRuntime.runMain(program, { disableErrorReporting: true, teardown })
