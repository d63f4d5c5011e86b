// Command-line administration: workspaces, API keys and people, against the same storage the server
// uses (DATABASE_URL, or the embedded database under DATA_DIR while the server is stopped); the first
// stderr line says which one it opened. Every command is a domain use case the console shares.
import { parseArgs } from "node:util"
import { setFlagsFromString } from "node:v8"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { SmtpMailerLive } from "@folio/adapters-integrations/mail"
import { IdGenLive } from "@folio/adapters-storage"
import {
  ApiKeyRepository,
  changeWorkspaceFeatures,
  ConsoleLinks,
  createTenant,
  FEATURE_NAMES,
  FORMS_SCOPE_SET,
  inviteAsOperator,
  isRole,
  issueApiKey,
  issueResetLink,
  isServiceName,
  LinkPolicy,
  MembershipRepository,
  parseScopeList,
  ROLES,
  ResponseRepository,
  revokeApiKey,
  SERVICE_NAMES,
  SHARING_SCOPE_SET,
  type ScopeSet,
  type ServiceName,
  setTenantDisabled,
  TenantNotFound,
  TenantRepository,
  UserRepository
} from "@folio/domain"
import { Console, Effect, Layer, Option, Redacted, References } from "effect"
import { archiveProgram, isArchiveCommand } from "./backup.js"
import { AppConfig } from "./config.js"
import { reportFailure, teardown } from "./failure.js"
import { blobsCheck } from "./blobs-check.js"
import { blobSigningSecret, blobStoreLayer, describeStore, storageLayer } from "./storage.js"

// A command is short, and V8's optimizing compile of the embedded database's hottest WebAssembly
// would outlast it: one of PostgreSQL's functions (~100 KB of code) takes TurboFan ~1.7 s and
// ~600 MB on a background thread, and the process cannot exit before that compile ends. A hundred
// times V8's tiering budget keeps a command on the baseline compiler; a long one (thousands of
// statements) still tiers up. Set before the database's module is compiled (at its first open);
// decision 0029, "The embedded database's optimizing compile".
setFlagsFromString("--wasm-tiering-budget=1300000000")

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
             [--expires YYYY-MM-DD]
                                 (--scopes all = every scope of the service; forms is the default;
                                 sharing scopes: read,write,delete; --expires: refused from 00:00 UTC
                                 of that day, at most 10 years ahead; without it the key never expires)
  key list --workspace ID        with expiry, last use (recorded within a second) and who created it
  user invite --workspace ID --email E [--role owner|admin|member]
                                 print a link (valid 7 days, once) that lets E join the workspace with
                                 that role (member by default), creating their account; e-mailed too
                                 when SMTP_URL is set
  user reset-link --email E      print a password reset link for E's account (valid 1 hour, once)
  user list [--workspace ID]     e-mail, name and role of each member of the workspace; without
                                 --workspace, every person with their workspaces and roles
  key revoke --workspace ID KEY_ID
  backup --out FILE              the embedded database, blobs and secrets of DATA_DIR in one .tar.gz
                                 with a checksum per entry (stop the server first; mode 0600)
  restore --in FILE              into an empty or new DATA_DIR, after checking every checksum
  stats rebuild [--form ID]      recompute the kept answer aggregates (after importing responses by SQL)
  blobs check [--delete-orphans] the blob store against the database: keys a row names with no object
                                 (missing; exit code 1) and objects no row names older than
                                 BLOB_ORPHAN_GRACE_HOURS (orphans); --delete-orphans deletes those
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
    expires: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    enable: { type: "string", multiple: true },
    disable: { type: "string", multiple: true },
    "delete-orphans": { type: "boolean" },
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

/**
 * `--expires 2027-01-31` -> 2027-01-31T00:00:00Z, as the console's date field: a key "expiring on"
 * a day is refused from that day's start (UTC). The range (future, within ten years) is the use
 * case's InvalidExpiry, the same for the console.
 */
const expiryOf = (value: string | boolean | undefined): Date | null => {
  if (value === undefined) return null
  const text = required(value, "expires")
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const date = match === null ? new Date(Number.NaN) : new Date(`${text}T00:00:00.000Z`)
  // Date.parse rolls 2027-02-30 over to March: a real calendar day reads back the same.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== text)
    throw new UsageError("--expires must be a date such as 2027-01-31")
  return date
}

const roleOf = (value: string | boolean | undefined) => {
  if (value === undefined) return "member" as const
  const role = required(value, "role")
  if (!isRole(role)) throw new UsageError(`--role must be one of: ${ROLES.join(", ")}`)
  return role
}

const day = (date: Date | null, none: string) => (date === null ? none : date.toISOString().slice(0, 10))
const instant = (date: Date | null, none: string) =>
  date === null ? none : `${date.toISOString().slice(0, 16).replace("T", " ")}Z`
/** 7 days, 1 hour: a link's lifetime as the CLI says it. */
const lifetime = (ms: number) => {
  const hours = Math.round(ms / 3_600_000)
  if (hours % 24 === 0) return `${hours / 24} day${hours === 24 ? "" : "s"}`
  return `${hours} hour${hours === 1 ? "" : "s"}`
}

const command = (config: AppConfig) =>
  Effect.gen(function* () {
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
          scopes,
          expiresAt: expiryOf(opts.expires)
        })
        yield* Console.log(
          `key ${record.id} created for ${record.service} with scopes ${record.scopes.join(",")}${
            record.expiresAt === null ? "" : `, refused from ${instant(record.expiresAt, "")}`
          }`
        )
        yield* Console.log("Store it now; it is shown only this once:")
        yield* Console.log(plaintext)
        return
      }
      case "key list": {
        const workspaceId = required(opts.workspace, "workspace")
        const keys = yield* ApiKeyRepository.pipe(Effect.flatMap((r) => r.list(workspaceId)))
        const users = yield* UserRepository
        const now = new Date()
        for (const k of keys) {
          const state =
            k.revokedAt !== null
              ? "revoked"
              : k.expiresAt !== null && k.expiresAt <= now
                ? "expired"
                : "active "
          // The console's people are named by e-mail; a key from the CLI or the first start by "cli".
          const by =
            k.createdBy === null
              ? "cli"
              : Option.match(yield* users.get(k.createdBy), {
                  onNone: () => "(removed account)",
                  onSome: (u) => u.email
                })
          yield* Console.log(
            [
              k.id,
              state,
              k.service,
              `folio_${k.prefix}_…`,
              k.name,
              k.scopes.join(","),
              `expires ${day(k.expiresAt, "never")}`,
              `last used ${instant(k.lastUsedAt, "never")}`,
              `created ${day(k.createdAt, "")} by ${by}`
            ].join("  ")
          )
        }
        return
      }
      case "user invite": {
        const tenantId = required(opts.workspace, "workspace")
        const email = required(opts.email, "email")
        const role = roleOf(opts.role)
        const { url, mailed } = yield* inviteAsOperator({ tenantId, email, role })
        const policy = yield* LinkPolicy
        yield* Console.log(
          `Invitation for ${email} to join as ${role}; the link works once, for ${lifetime(policy.invitationMs)}:`
        )
        yield* Console.log(url)
        yield* Console.log(
          mailed
            ? `E-mailed to ${email}.`
            : Option.isSome(config.smtpUrl)
              ? "Not e-mailed: the mail server did not take it (see the log); send the link yourself."
              : "Not e-mailed (SMTP_URL is not set); send the link yourself."
        )
        return
      }
      case "user reset-link": {
        const email = required(opts.email, "email")
        const link = yield* issueResetLink(email)
        if (Option.isNone(link)) {
          // The operator runs the CLI on the server: saying there is no such account reveals nothing.
          yield* Effect.sync(() => {
            process.stderr.write(`folio: no account has the e-mail ${email}\n`)
            process.exitCode = 1
          })
          return
        }
        const policy = yield* LinkPolicy
        yield* Console.log(
          `Password reset for ${email}; the link works once, for ${lifetime(policy.resetMs)}, and signs every session out:`
        )
        yield* Console.log(link.value.url)
        return
      }
      case "user list": {
        const memberships = yield* MembershipRepository
        if (typeof opts.workspace === "string") {
          const tenant = yield* TenantRepository.pipe(
            Effect.flatMap((r) => r.get(required(opts.workspace, "workspace")))
          )
          if (Option.isNone(tenant)) return yield* new TenantNotFound()
          for (const m of yield* memberships.listByTenant(tenant.value.id))
            yield* Console.log(`${m.email}  ${m.role}  ${m.displayName}`)
          return
        }
        // Everyone, once, with each workspace and role ("Acme: owner, Beta: member").
        const people = new Map<string, { email: string; displayName: string; roles: Array<string> }>()
        for (const tenant of yield* TenantRepository.pipe(Effect.flatMap((r) => r.list)))
          for (const m of yield* memberships.listByTenant(tenant.id)) {
            const person = people.get(m.userId) ?? { email: m.email, displayName: m.displayName, roles: [] }
            person.roles.push(`${tenant.name} (${tenant.id}): ${m.role}`)
            people.set(m.userId, person)
          }
        for (const p of [...people.values()].sort((a, b) => a.email.localeCompare(b.email)))
          yield* Console.log(`${p.email}  ${p.displayName}  ${p.roles.join(", ")}`)
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
        yield* Console.log(
          `answer stats rebuilt for ${formId === undefined ? "every form" : `form ${formId}`}`
        )
        return
      }
      case "blobs check": {
        const report = yield* blobsCheck({
          graceMs: config.blobOrphanGraceMs,
          deleteOrphans: opts["delete-orphans"] === true
        }).pipe(
          Effect.provide(
            Layer.unwrap(Effect.map(blobSigningSecret(config), (s) => blobStoreLayer(config, s)))
          )
        )
        if (report.missing > 0) process.exitCode = 1
        return
      }
      default:
        throw new UsageError(
          noun === undefined ? "missing command" : `unknown command: ${noun} ${verb ?? ""}`
        )
    }
  })

if (parsed.values.help === true || parsed.positionals.length === 0) {
  process.stdout.write(USAGE)
  process.exit(parsed.values.help === true ? 0 : 2)
}

// Flags that need no store are checked before one is opened (a typo costs no database start).
try {
  expiryOf(parsed.values.expires)
  roleOf(parsed.values.role)
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`)
  process.exit(2)
}

const program = Effect.gen(function* () {
  const config = yield* AppConfig
  // Named once the store is open, on stderr (stdout carries what scripts read, such as a new key):
  // a key made in the embedded database by mistake would get 401 from a PostgreSQL server.
  const announce = Effect.sync(() => process.stderr.write(`folio: using ${describeStore(config)}\n`))
  // Links name the server's public origin; invitations go out by mail only when SMTP_URL is set.
  const mailer = Option.match(config.smtpUrl, {
    onNone: () => Layer.empty,
    onSome: (url) => SmtpMailerLive({ url: Redacted.value(url), from: config.mailFrom })
  })
  yield* Effect.andThen(announce, command(config)).pipe(
    Effect.provideService(ConsoleLinks, { publicOrigin: config.publicOrigin }),
    Effect.provide(Layer.mergeAll(storageLayer(config), IdGenLive, mailer))
  )
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

// backup and restore open DATA_DIR themselves (a dump, not the storage layer and its migrations).
NodeRuntime.runMain(isArchiveCommand(parsed.positionals[0]) ? archiveProgram(USAGE) : program, {
  disableErrorReporting: true,
  teardown
})
