// Command-line administration: workspaces and API keys, against the same storage the server uses
// (DATABASE_URL, or the embedded database under DATA_DIR while the server is stopped); the first
// stderr line says which one it opened.
import { parseArgs } from "node:util"
import { NodeRuntime } from "@effect/platform-node"
import { IdGenLive } from "@folio/adapters-storage"
import {
  ApiKeyRepository,
  changeWorkspaceFeatures,
  createTenant,
  FEATURE_NAMES,
  FORMS_SCOPE_SET,
  SHARING_SCOPE_SET,
  isServiceName,
  issueApiKey,
  parseScopeList,
  ResponseRepository,
  revokeApiKey,
  SERVICE_NAMES,
  type ScopeSet,
  type ServiceName,
  setTenantDisabled,
  TenantRepository
} from "@folio/domain"
import { Console, Effect, Layer, References } from "effect"
import { AppConfig } from "./config.js"
import { reportFailure, teardown } from "./failure.js"
import { describeStore, storageLayer } from "./storage.js"

const USAGE = `usage: npm run cli -- <command>

  workspace create NAME
  workspace list
  workspace disable ID           refuse every key of the workspace (sharing: user_disabled) and
                                 answer its public pages and upload requests with 404
  workspace enable ID            accept its keys and serve its public side again
  workspace features ID [--enable NAME[,NAME]] [--disable NAME[,NAME]]
                                 switch forms features on or off (other flags kept) and print them
                                 all; with neither flag, only print. Names: ${FEATURE_NAMES.join(", ")}
                                 (snake_case accepted: partial_submissions)
  key create --workspace ID --scopes forms:read,forms:write,... [--service forms|sharing] [--name NAME]
                                 (--scopes all = every scope of the service; forms is the default;
                                 sharing scopes: read,write,delete)
  key list --workspace ID
  key revoke --workspace ID KEY_ID
  stats rebuild [--form ID]      recompute the kept answer aggregates (after importing responses by SQL)
`

class UsageError extends Error {}

const parsed = parseArgs({
  args: process.argv.slice(2),
  allowPositionals: true,
  options: {
    workspace: { type: "string" },
    scopes: { type: "string" },
    service: { type: "string" },
    form: { type: "string" },
    name: { type: "string" },
    enable: { type: "string", multiple: true },
    disable: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" }
  },
  strict: false
})

const required = (value: string | boolean | undefined, flag: string): string => {
  if (typeof value !== "string" || value.length === 0) throw new UsageError(`missing --${flag}`)
  return value
}

/** The services whose keys the CLI issues, with their scope sets. */
const SCOPE_SETS: Partial<Record<ServiceName, ScopeSet>> = {
  forms: FORMS_SCOPE_SET,
  sharing: SHARING_SCOPE_SET
}

const scopeSetOf = (value: string | boolean | undefined): ScopeSet => {
  const service = value === undefined ? "forms" : required(value, "service")
  if (!isServiceName(service)) throw new UsageError(`--service must be one of: ${SERVICE_NAMES.join(", ")}`)
  const set = SCOPE_SETS[service]
  if (set === undefined)
    throw new UsageError(
      `${service} keys cannot be issued yet: their scopes arrive with the ${service} service`
    )
  return set
}

/** `--enable a,b --enable c` -> [a, b, c]. */
const nameList = (value: unknown, flag: string): ReadonlyArray<string> =>
  (Array.isArray(value) ? value : []).flatMap((v) => {
    const names =
      typeof v === "string"
        ? v
            .split(",")
            .map((n) => n.trim())
            .filter((n) => n.length > 0)
        : []
    if (names.length === 0) throw new UsageError(`--${flag} needs a feature name`)
    return names
  })

const command = Effect.gen(function* () {
  const [noun, verb, arg] = parsed.positionals
  const opts = parsed.values
  switch (`${noun} ${verb}`) {
    case "workspace create": {
      if (arg === undefined) throw new UsageError("missing workspace NAME")
      const ws = yield* createTenant(parsed.positionals.slice(2).join(" "))
      yield* Console.log(`workspace ${ws.id} "${ws.name}" created`)
      return
    }
    case "workspace list": {
      const all = yield* TenantRepository.pipe(Effect.flatMap((r) => r.list))
      for (const ws of all)
        yield* Console.log(
          `${ws.id}  ${ws.createdAt.toISOString()}  ${ws.disabledAt === null ? "active  " : "disabled"}  ${ws.name}`
        )
      return
    }
    case "workspace disable":
    case "workspace enable": {
      if (arg === undefined) throw new UsageError("missing workspace ID")
      const disable = verb === "disable"
      yield* setTenantDisabled(arg, disable)
      yield* Console.log(`workspace ${arg} ${disable ? "disabled" : "enabled"}`)
      return
    }
    case "workspace features": {
      if (arg === undefined) throw new UsageError("missing workspace ID")
      const features = yield* changeWorkspaceFeatures(arg, {
        enable: nameList(opts.enable, "enable"),
        disable: nameList(opts.disable, "disable")
      })
      for (const [name, on] of Object.entries(features)) yield* Console.log(`${name}  ${on ? "on" : "off"}`)
      return
    }
    case "key create": {
      const workspaceId = required(opts.workspace, "workspace")
      const scopeSet = scopeSetOf(opts.service)
      const scopes = yield* parseScopeList(required(opts.scopes, "scopes"), scopeSet)
      const name = typeof opts.name === "string" ? opts.name : "cli"
      const { record, plaintext } = yield* issueApiKey({
        tenantId: workspaceId,
        service: scopeSet.service,
        name,
        scopes
      })
      yield* Console.log(
        `key ${record.id} created for ${record.service} with scopes ${record.scopes.join(",")}`
      )
      yield* Console.log("Store it now; it is shown only this once:")
      yield* Console.log(plaintext)
      return
    }
    case "key list": {
      const workspaceId = required(opts.workspace, "workspace")
      const keys = yield* ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(workspaceId)))
      for (const k of keys) {
        const state = k.revokedAt === null ? "active " : "revoked"
        yield* Console.log(
          `${k.id}  ${state}  ${k.service}  folio_${k.prefix}_…  ${k.name}  ${k.scopes.join(",")}`
        )
      }
      return
    }
    case "key revoke": {
      const workspaceId = required(opts.workspace, "workspace")
      if (arg === undefined) throw new UsageError("missing KEY_ID")
      yield* revokeApiKey(workspaceId, arg)
      yield* Console.log(`key ${arg} revoked`)
      return
    }
    case "stats rebuild": {
      const formId = typeof opts.form === "string" ? opts.form : undefined
      yield* ResponseRepository.pipe(Effect.flatMap((r) => r.rebuildAnswerStats(formId)))
      yield* Console.log(`answer stats rebuilt for ${formId === undefined ? "every form" : `form ${formId}`}`)
      return
    }
    default:
      throw new UsageError(noun === undefined ? "missing command" : `unknown command: ${noun} ${verb ?? ""}`)
  }
})

if (parsed.values.help === true || parsed.positionals.length === 0) {
  process.stdout.write(USAGE)
  process.exit(parsed.values.help === true ? 0 : 2)
}

const program = Effect.gen(function* () {
  const config = yield* AppConfig
  // Named once the store is open, on stderr (stdout carries what scripts read, such as a new key):
  // a key made in the embedded database by mistake would get 401 from a PostgreSQL server.
  const announce = Effect.sync(() => process.stderr.write(`folio: using ${describeStore(config)}\n`))
  yield* Effect.andThen(announce, command).pipe(Effect.provide(Layer.merge(storageLayer(config), IdGenLive)))
}).pipe(
  Effect.catchDefect((defect) =>
    defect instanceof UsageError
      ? Effect.sync(() => {
          process.stderr.write(`${defect.message}\n\n${USAGE}`)
          process.exitCode = 2
        })
      : Effect.die(defect)
  ),
  Effect.catchCause(reportFailure),
  Effect.provideService(References.MinimumLogLevel, "Warn")
)

NodeRuntime.runMain(program, { disableErrorReporting: true, teardown })
