// Configuration: defaults for `npm start`, and one line naming the variable for each bad value.
import { AppConfig, describeConfigError } from "@folio/app"
import { ConfigProvider, Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"

const load = (env: Record<string, string>) =>
  Effect.runSync(
    Effect.result(
      Effect.provideService(AppConfig, ConfigProvider.ConfigProvider, ConfigProvider.fromEnvRecord(env))
    )
  )

const OTLP_ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" }

describe("AppConfig", () => {
  it("has defaults that run on a fresh machine", () => {
    const config = Result.getOrThrow(load({}))
    expect(config).toMatchObject({
      port: 8080,
      host: "127.0.0.1",
      publicOrigin: "http://127.0.0.1:8080",
      dataDir: "./data",
      blobStore: "fs",
      logLevel: "info",
      rateLimitPerKey: 120,
      authAttemptsPerIp: 600
    })
    expect(Option.isNone(config.databaseUrl)).toBe(true)
  })

  it("sends no mail without SMTP_URL, and takes MAIL_FROM's default from the public origin", () => {
    const none = Result.getOrThrow(load({ PUBLIC_ORIGIN: "https://forms.example.com" }))
    expect(Option.isNone(none.smtpUrl)).toBe(true)
    expect(none.mailFrom).toBe("Folio <no-reply@forms.example.com>")
    const set = Result.getOrThrow(
      load({ SMTP_URL: "smtps://user:pass@mail.example.com:465", MAIL_FROM: "Forms <forms@example.com>" })
    )
    expect(Option.isSome(set.smtpUrl)).toBe(true)
    // The URL holds a password: it is kept redacted.
    expect(String(Option.getOrThrow(set.smtpUrl))).not.toContain("pass")
    expect(set.mailFrom).toBe("Forms <forms@example.com>")
  })

  it("reads the console's session lifetimes in minutes and hours (12 h idle, 7 days at most by default)", () => {
    const defaults = Result.getOrThrow(load({}))
    expect(defaults.consoleSessionIdleMs).toBe(720 * 60_000)
    expect(defaults.consoleSessionMaxMs).toBe(168 * 3_600_000)
    const set = Result.getOrThrow(
      load({ CONSOLE_SESSION_IDLE_MINUTES: "30", CONSOLE_SESSION_MAX_HOURS: "24" })
    )
    expect(set.consoleSessionIdleMs).toBe(30 * 60_000)
    expect(set.consoleSessionMaxMs).toBe(24 * 3_600_000)
    for (const [variable, env] of [
      ["CONSOLE_SESSION_IDLE_MINUTES", { CONSOLE_SESSION_IDLE_MINUTES: "0" }],
      ["CONSOLE_SESSION_MAX_HOURS", { CONSOLE_SESSION_MAX_HOURS: "1.5" }]
    ] as const) {
      const failed = load(env)
      expect(Result.isFailure(failed) && describeConfigError(failed.failure)).toContain(variable)
    }
  })

  /** Each (variable, value) stops start-up with a line naming the variable, not the value ("0" aside). */
  const expectTraceSettingsRefused = (cases: ReadonlyArray<readonly [string, string]>) => {
    for (const [variable, value] of cases) {
      const failed = load({ ...OTLP_ENDPOINT, [variable]: value })
      const line = Result.isFailure(failed) ? describeConfigError(failed.failure) : ""
      expect(line).toContain(variable)
      if (value !== "0") expect(line).not.toContain(value)
    }
  }

  it("reads the span exporter's schedule and batch (OTEL_BSP_*), and refuses what is not a count", () => {
    const defaults = Option.getOrThrow(Result.getOrThrow(load(OTLP_ENDPOINT)).traces)
    expect(defaults).toMatchObject({ exportDelayMillis: 5000, exportBatchSize: 1000 })
    const set = Option.getOrThrow(
      Result.getOrThrow(
        load({ ...OTLP_ENDPOINT, OTEL_BSP_SCHEDULE_DELAY: "250", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "64" })
      ).traces
    )
    expect(set).toMatchObject({ exportDelayMillis: 250, exportBatchSize: 64 })
    expectTraceSettingsRefused([
      ["OTEL_BSP_SCHEDULE_DELAY", "0"],
      ["OTEL_BSP_SCHEDULE_DELAY", "1s"],
      ["OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "-1"],
      ["OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "2.5"]
    ])
  })

  it("reads the export timeout (OTEL_EXPORTER_OTLP_TRACES_TIMEOUT over _TIMEOUT), and refuses what is not milliseconds", () => {
    const timeout = (env: Record<string, string>) =>
      Option.getOrThrow(Result.getOrThrow(load({ ...OTLP_ENDPOINT, ...env })).traces).exportTimeoutMillis
    expect(timeout({})).toBe(10_000)
    expect(timeout({ OTEL_EXPORTER_OTLP_TIMEOUT: "2500" })).toBe(2500)
    expect(timeout({ OTEL_EXPORTER_OTLP_TIMEOUT: "2500", OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "700" })).toBe(
      700
    )
    expectTraceSettingsRefused([
      ["OTEL_EXPORTER_OTLP_TIMEOUT", "0"],
      ["OTEL_EXPORTER_OTLP_TIMEOUT", "10s"],
      ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "1.5"],
      ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "600001"]
    ])
  })

  it("treats an empty DATABASE_URL as unset", () => {
    expect(Option.isNone(Result.getOrThrow(load({ DATABASE_URL: "" })).databaseUrl)).toBe(true)
  })

  it.each([
    ["PORT", { PORT: "70000" }],
    ["PORT", { PORT: "eighty" }],
    ["PUBLIC_ORIGIN", { PUBLIC_ORIGIN: "https://forms.example.com/path" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://x" }],
    ["BLOB_STORE", { BLOB_STORE: "ftp" }],
    [
      "S3_BUCKET",
      {
        BLOB_STORE: "s3",
        S3_ENDPOINT: "http://127.0.0.1:9000",
        S3_ACCESS_KEY_ID: "a",
        S3_SECRET_ACCESS_KEY: "b"
      }
    ],
    ["BLOB_SIGNING_SECRET", { BLOB_SIGNING_SECRET: "short" }],
    ["LOG_LEVEL", { LOG_LEVEL: "loud" }],
    ["RATE_LIMIT_PER_KEY", { RATE_LIMIT_PER_KEY: "0" }],
    ["ANALYTICS_EXPORT_MAX_ROWS", { ANALYTICS_EXPORT_MAX_ROWS: "100001" }],
    ["ANALYTICS_IP_HEADER", { ANALYTICS_IP_HEADER: "x real ip" }],
    ["SMTP_URL", { SMTP_URL: "https://mail.example.com" }],
    ["MAIL_FROM", { MAIL_FROM: "Folio <forms@example.com>\r\nBcc: x@example.com" }],
    ["MAIL_FROM", { MAIL_FROM: "not an address" }]
  ])("names %s when its value is bad", (name, env) => {
    const result = load(env)
    expect(Result.isFailure(result)).toBe(true)
    if (Result.isFailure(result)) {
      const line = describeConfigError(result.failure)
      expect(line).toContain(name)
      expect(line.split("\n")).toHaveLength(1)
    }
  })
})
