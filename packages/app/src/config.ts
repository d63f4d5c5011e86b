// Server configuration from the environment (effect Config). Every variable has a safe default for
// `npm start`; a bad value fails start-up with one line naming the variable.
import { Config, type ConfigError, Effect, Option, Redacted } from "effect"
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
}

const origin = (name: string) =>
  Config.string(name).pipe(
    Config.validate({
      message: "must be an origin such as https://forms.example.com (scheme, host, optional port; no path)",
      validation: (value) => {
        try {
          const url = new URL(value)
          return (
            (url.protocol === "http:" || url.protocol === "https:") && url.origin === value.replace(/\/$/, "")
          )
        } catch {
          return false
        }
      }
    }),
    Config.map((value) => value.replace(/\/$/, ""))
  )

const port = Config.integer("PORT").pipe(
  Config.withDefault(8080),
  Config.validate({ message: "must be an integer from 0 to 65535", validation: (p) => p >= 0 && p <= 65535 })
)

const positive = (name: string, fallback: number) =>
  Config.integer(name).pipe(
    Config.withDefault(fallback),
    Config.validate({ message: "must be a positive integer", validation: (n) => n > 0 })
  )

const s3 = Config.all({
  endpoint: origin("S3_ENDPOINT"),
  region: Config.string("S3_REGION").pipe(Config.withDefault("us-east-1")),
  bucket: Config.string("S3_BUCKET"),
  accessKeyId: Config.string("S3_ACCESS_KEY_ID"),
  secretAccessKey: Config.redacted("S3_SECRET_ACCESS_KEY"),
  forcePathStyle: Config.boolean("S3_FORCE_PATH_STYLE").pipe(Config.withDefault(true))
})

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
      Config.validate({ message: "must not be empty", validation: (d) => d.trim().length > 0 })
    ),
    databaseUrl: yield* Config.option(
      Config.redacted("DATABASE_URL").pipe(
        Config.validate({
          message: "must be a postgres:// or postgresql:// URL",
          validation: (u) => /^postgres(ql)?:\/\//.test(Redacted.value(u))
        })
      )
    ),
    blobStore,
    s3: blobStore === "s3" ? Option.some(yield* s3) : Option.none(),
    blobSigningSecret: yield* Config.option(
      Config.redacted("BLOB_SIGNING_SECRET").pipe(
        Config.validate({
          message: "must be at least 32 characters",
          validation: (s) => Redacted.value(s).length >= 32
        })
      )
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
    shutdownGraceMs: yield* Config.integer("SHUTDOWN_GRACE_MS").pipe(
      Config.withDefault(4000),
      Config.validate({ message: "must be from 0 to 60000", validation: (n) => n >= 0 && n <= 60000 })
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
