// BLOB_STORE=s3 against a real S3-protocol server (s3rver): a missing bucket stops start-up with one
// line instead of a server that is "ready" and answers 500 to every upload, and /readyz turns 503
// when the bucket goes away. Also: no AWS SDK Node-version warning on start.
import { rmSync } from "node:fs"
import { CreateBucketCommand, DeleteBucketCommand, S3Client } from "@aws-sdk/client-s3"
import { MemoryStorageLive } from "@folio/adapters-storage"
import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { startS3 } from "../support/s3.js"
import { build, migratedDataDir, runProcess, startServer } from "./process.js"

let s3: Awaited<ReturnType<typeof startS3>>
const dataDirs: Array<string> = []

beforeAll(async () => {
  s3 = await startS3()
  await build()
}, 240_000)
afterAll(async () => {
  await s3.close()
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true })
})

/** A start's environment: a copy of the run's migrated database (the bucket is the point, not a first start). */
const s3Env = (bucket: string) => {
  const dataDir = migratedDataDir("folio-s3-bucket-")
  dataDirs.push(dataDir)
  return {
    DATA_DIR: dataDir,
    LOG_LEVEL: "warning",
    BLOB_STORE: "s3",
    S3_ENDPOINT: s3.options.endpoint,
    S3_BUCKET: bucket,
    S3_ACCESS_KEY_ID: s3.options.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.options.secretAccessKey
  }
}

describe("BLOB_STORE=s3 start-up", () => {
  it("a missing bucket stops start-up with one line naming it", async () => {
    const result = await runProcess("main", [], { ...s3Env("folio-missing"), PORT: "0" })
    expect(result.code).toBe(1)
    const lines = result.stderr.trimEnd().split("\n")
    expect(lines).toEqual([
      `folio: cannot use S3 bucket "folio-missing" at ${s3.options.endpoint} (S3_ENDPOINT, S3_BUCKET): the bucket does not exist`
    ])
  }, 90_000)

  it("an existing bucket starts ready, with nothing on stderr (no AWS SDK Node-version warning)", async () => {
    const server = await startServer({ ...s3Env(s3.options.bucket), LOG_LEVEL: "info" })
    try {
      expect((await fetch(`${server.origin}/readyz`)).status).toBe(200)
    } finally {
      server.child.kill("SIGTERM")
      expect((await server.exited).code).toBe(0)
    }
    expect(server.stderr()).toBe("")
  }, 90_000)
})

describe("/readyz with BLOB_STORE=s3", () => {
  let app: RunningApp
  const admin = () =>
    new S3Client({
      endpoint: s3.options.endpoint,
      region: s3.options.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.options.accessKeyId, secretAccessKey: s3.options.secretAccessKey }
    })

  beforeAll(async () => {
    app = await startApp({
      storage: MemoryStorageLive,
      config: {
        blobStore: "s3",
        s3: Option.some({ ...s3.options, secretAccessKey: Redacted.make(s3.options.secretAccessKey) })
      }
    })
  })
  afterAll(() => app.close())

  it("is 200 with the bucket, 503 with the envelope once it is gone, and 200 again when it is back", async () => {
    expect((await fetch(`${app.origin}/readyz`)).status).toBe(200)
    const client = admin()
    try {
      await client.send(new DeleteBucketCommand({ Bucket: s3.options.bucket }))
      const gone = await fetch(`${app.origin}/readyz`)
      expect(gone.status).toBe(503)
      expect(await gone.json()).toMatchObject({
        ok: false,
        error: { code: "internal", message: "not ready" }
      })
      await client.send(new CreateBucketCommand({ Bucket: s3.options.bucket }))
      expect((await fetch(`${app.origin}/readyz`)).status).toBe(200)
    } finally {
      client.destroy()
    }
  })
})
