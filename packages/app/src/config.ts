// Server configuration from the environment (effect Config). Every variable has a safe default for
// `npm start`; a bad value fails start-up with one line naming the variable.
import { Config, type ConfigError, Effect, Either, Option, Redacted } from "effect"
import { ConfigError as ConfigErrors } from "effect"

export type BlobStoreKind = "fs" | "s3" | "memory"
export type LogLevelName = "trace" | "debug" | "info" | "warning" | "error" | "none"

export interface S3Settings {
  readonly endpoint: string
  readonly region: string
  readonly bucket: string
  readonly accessKeyId: string
  readonly secretAccessKey: Redacted.Redacted<string>
  readonly forcePathStyle: boolean
}

export interface AppConfig {
  readonly port: number
  readonly host: string
  readonly publicOrigin: string
  readonly dataDir: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly blobStore: BlobStoreKind
  readonly s3: Option.Option<S3Settings>
  readonly blobSigningSecret: Option.Option<Redacted.Redacted<string>>
  readonly logLevel: LogLevelName
  readonly shutdownGraceMs: number
  /** Requests per minute per API key (spec: 120). */
  readonly rateLimitPerKey: number
  /** Authentication attempts per minute per client IP (spec: 600). */
  readonly authAttemptsPerIp: number
  /** Requests per minute per client IP on the public respondent routes. */
  readonly respondentRequestsPerIp: number
  /** Share of scanned responses (0..1) past which an insight candidate is marked `auto`. */
  readonly insightsAutoThreshold: number
}

/** Like Config.validate, but the failure names its variable (validate alone reports an empty path). */
const check =
  <A>(name: string, message: string, validation: (a: A) => boolean) =>
  (self: Config.Config<A>): Config.Config<A> =>
    Config.mapOrFail(self, (a) =>
      validation(a) ? Either.right(a) : Either.left(ConfigErrors.InvalidData([name], message))
    )

const isOrigin = (value: string): boolean => {
  try {
    const url = new URL(value)
    return (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")
  } catch {
    return false
  }
}

// Validated before nesting under its name: a mapOrFail directly on a named config prefixes the
// error path with that name itself, so `check(name, ...)` there printed the name twice.
const origin = (name: string) =>
  Config.nested(
    Config.string().pipe(
      Config.mapOrFail((value) =>
        isOrigin(value)
          ? Either.right(value.replace(/\/$/, ""))
          : Either.left(
              ConfigErrors.InvalidData(
                [],
                "must be an origin such as https://forms.example.com (scheme, host, optional port; no path)"
              )
            )
      )
    ),
    name
  )

const port = Config.integer("PORT").pipe(
  Config.withDefault(8080),
  check("PORT", "must be an integer from 0 to 65535", (p: number) => p >= 0 && p <= 65535)
)

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    check(name, "must be a positive integer", (n: number) => n > 0)
  )

const s3 = Config.all({
  endpoint: origin("S3_ENDPOINT"),
  region: Config.string("S3_REGION").pipe(Config.withDefault("us-east-1")),
  bucket: Config.string("S3_BUCKET"),
  accessKeyId: Config.string("S3_ACCESS_KEY_ID"),
  secretAccessKey: Config.redacted("S3_SECRET_ACCESS_KEY"),
  forcePathStyle: Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(true))
})

/** An optional secret-ish variable where an empty value means unset (as env files often write it). */
const optionalRedacted = (name: string, message: string, validation: (value: string) => boolean) =>
  Config.option(Config.string(name)).pipe(
    Config.map((o) => Option.filter(o, (v) => v.trim() !== "")),
    Config.mapOrFail((o) =>
      Option.isSome(o) && !validation(o.value)
        ? Either.left(ConfigErrors.InvalidData([name], message))
        : Either.right(Option.map(o, (v) => Redacted.make(v)))
    )
  )

/** Reads and validates the configuration; fails with the ConfigError naming each bad variable. */
export const AppConfig: Effect.Effect<AppConfig, ConfigError.ConfigError> = Effect.gen(function* () {
  const p = yield* port
  const host = yield* Config.string("HOST").pipe(Config.withDefault("127.0.0.1"))
  const publicOrigin = yield* origin("PUBLIC_ORIGIN").pipe(
    Config.withDefault(`http://${host === "0.0.0.0" || host === "::" ? "localhost" : host}:${p}`)
  )
  const blobStore = yield* Config.literal(
    "fs",
    "s3",
    "memory"
  )("BLOB_STORE").pipe(Config.withDefault("fs" as const))
  return {
    port: p,
    host,
    publicOrigin,
    dataDir: yield* Config.string("DATA_DIR").pipe(
      Config.withDefault("./data"),
      check("DATA_DIR", "must not be empty", (d: string) => d.trim().length > 0)
    ),
    databaseUrl: yield* optionalRedacted("DATABASE_URL", "must be a postgres:// or postgresql:// URL", (u) =>
      /^postgres(ql)?:\/\//.test(u)
    ),
    blobStore,
    s3: blobStore === "s3" ? Option.some(yield* s3) : Option.none(),
    blobSigningSecret: yield* optionalRedacted(
      "BLOB_SIGNING_SECRET",
      "must be at least 32 characters",
      (s) => s.length >= 32
    ),
    logLevel: yield* Config.literal(
      "trace",
      "debug",
      "info",
      "warning",
      "error",
      "none"
    )("LOG_LEVEL").pipe(Config.withDefault("info" as const)),
    rateLimitPerKey: yield* positive("RATE_LIMIT_PER_KEY", 120),
    authAttemptsPerIp: yield* positive("AUTH_ATTEMPTS_PER_IP", 600),
    respondentRequestsPerIp: yield* positive("RESPONDENT_REQUESTS_PER_IP", 300),
    insightsAutoThreshold: yield* Config.number("INSIGHTS_AUTO_THRESHOLD").pipe(
      Config.withDefault(0.3),
      check("INSIGHTS_AUTO_THRESHOLD", "must be a number from 0 to 1", (n: number) => n >= 0 && n <= 1)
    ),
    shutdownGraceMs: yield* Config.integer("SHUTDOWN_GRACE_MS").pipe(
      Config.withDefault(4000),
      check("SHUTDOWN_GRACE_MS", "must be from 0 to 60000", (n: number) => n >= 0 && n <= 60000)
    )
  }
})

/** One line per problem, naming the variable, for a start-up failure message. */
export const describeConfigError = (error: ConfigError.ConfigError): string => {
  const lines: Array<string> = []
  const walk = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        walk(e.left)
        walk(e.right)
        return
      case "MissingData":
        lines.push(`${e.path.join("_")}: is required (${e.message})`)
        return
      case "InvalidData":
        lines.push(`${e.path.join("_")}: ${e.message}`)
        return
      case "SourceUnavailable":
      case "Unsupported":
        lines.push(`${e.path.join("_")}: ${e.message}`)
        return
    }
  }
  walk(error)
  return `invalid configuration: ${[...new Set(lines)].join("; ")}`
}

export const isConfigError = (u: unknown): u is ConfigError.ConfigError => ConfigErrors.isConfigError(u)
