// The server: `npm start`. Reads configuration, opens storage (embedded PGlite by default), serves
// HTTP; on first start with an empty embedded database prints a full-scope key per service once, and
// while nobody has an account, a one-time link that creates the owner (PostgreSQL: how to get one).
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import {
  bootstrapIfEmpty,
  ConsoleLinks,
  createSetupLink,
  FORMS_SCOPE_SET,
  LinkPolicy,
  SHARING_SCOPE_SET,
  TenantRepository,
  UserRepository
} from "@folio/domain"
import { Effect, Layer, Logger, Option, References } from "effect"
import { HttpServer } from "effect/http"
import { NetAddress } from "effect/net"
import { appLayer } from "./app-layer.js"
import { AppConfig } from "./config.js"
import { reportFailure, StartupError, teardown } from "./failure.js"
import { logLevelOf, redactedJsonLogger } from "./logging.js"

/**
 * What a start prints besides its log lines: on PostgreSQL, how to get the first owner's link while
 * nobody has an account; on the embedded database, the first start's keys and, while nobody has an
 * account, a fresh setup link.
 */
const startMessage = (config: AppConfig) =>
  Effect.gen(function* () {
    // Only the embedded database bootstraps itself; a real server is provisioned with the CLI.
    if (Option.isSome(config.databaseUrl))
      return (yield* UserRepository.pipe(Effect.flatMap((r) => r.count))) === 0
        ? "\nNobody has a console account yet. For the first owner's link, run with this server's DATABASE_URL:\n" +
            "  npm run cli -- user invite --workspace W --email E --role owner\n" +
            "(W from `npm run cli -- workspace list`, or make one with `npm run cli -- workspace create NAME`)\n\n"
        : ""
    const created = yield* bootstrapIfEmpty({
      tenantName: "Default workspace",
      scopeSets: [FORMS_SCOPE_SET, SHARING_SCOPE_SET]
    })
    const lines: Array<string> = []
    if (Option.isSome(created)) {
      const { keys, tenant: workspace } = created.value
      const [forms, sharing] = keys
      lines.push(
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
      )
    }
    // Until someone has an account, every start prints a fresh setup link (a newcomer who lost the
    // first one restarts); the default workspace is the oldest one.
    if ((yield* UserRepository.pipe(Effect.flatMap((r) => r.count))) === 0) {
      const [workspace] = yield* TenantRepository.pipe(Effect.flatMap((r) => r.list))
      if (workspace !== undefined) {
        const { url } = yield* createSetupLink(workspace.id).pipe(
          Effect.provideService(ConsoleLinks, { publicOrigin: config.publicOrigin })
        )
        const days = Math.round((yield* LinkPolicy).setupMs / 86_400_000)
        if (lines.length === 0) lines.push("")
        lines.push(
          `Open ${url} to create the owner account of ${workspace.name} (valid ${days} days, once)`,
          ""
        )
      }
    }
    return lines.length > 0 ? `${lines.join("\n")}\n` : ""
  })

/**
 * The start's output, "listening" last: the server already listens while the keys and the setup
 * link are made, but whoever watches the output for that line (a supervisor, a test) finds
 * everything the start prints before it.
 */
const announce = (config: AppConfig) =>
  Layer.effectDiscard(
    Effect.gen(function* () {
      const server = yield* HttpServer.HttpServer
      const address = NetAddress.formatSocketAddress(server.address)
      // Said once at start: notifications set up on this server are accepted but not e-mailed.
      if (Option.isNone(config.smtpUrl))
        yield* Effect.logWarning("notification e-mail is off: SMTP_URL is not set, so no e-mail is sent")
      const message = yield* startMessage(config)
      if (message !== "") yield* Effect.sync(() => process.stdout.write(message))
      yield* Effect.logInfo("listening").pipe(
        Effect.annotateLogs({
          address,
          publicOrigin: config.publicOrigin,
          embedded: Option.isNone(config.databaseUrl)
        })
      )
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
