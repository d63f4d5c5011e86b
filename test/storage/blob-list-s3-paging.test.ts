// The S3 blob store's listing past one page (ListObjectsV2 answers 1,000 keys at most, then a
// continuation token), against s3rver in a child process that can make those tokens.
import { S3BlobStoreLive } from "@folio/adapters-storage/s3"
import { BlobStore } from "@folio/domain"
import { Effect, Exit, Layer, Scope, Stream } from "effect"
import { afterAll, beforeAll, expect, it } from "vitest"
import { startS3Child } from "../support/s3-child.js"

let s3: Awaited<ReturnType<typeof startS3Child>> | undefined
const scope = Effect.runSync(Scope.make())
let run: <A, E>(effect: Effect.Effect<A, E, BlobStore>) => Promise<A> = () =>
  Promise.reject(new Error("not started"))

beforeAll(async () => {
  s3 = await startS3Child()
  const context = await Effect.runPromise(Layer.buildWithScope(S3BlobStoreLive(s3.options), scope))
  run = (effect) => Effect.runPromise(Effect.provide(effect, context))
}, 60_000)

afterAll(async () => {
  await Effect.runPromise(Scope.close(scope, Exit.void))
  await s3?.close()
})

it("lists 1,003 keys over two pages, each once, and only those under the prefix", async () => {
  const keys = Array.from({ length: 1003 }, (_, i) => `paged/${String(i).padStart(4, "0")}`)
  await run(
    Effect.flatMap(BlobStore, (s) =>
      Effect.forEach(
        [...keys, "beside/one"],
        (k) => s.put(k, { bytes: new Uint8Array([1]), contentType: "x/y" }),
        { concurrency: 4, discard: true }
      )
    )
  )
  const listed = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list("paged/"))))
  expect(listed.map((l) => l.key).sort()).toEqual(keys)
  const everything = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list())))
  expect(everything.length).toBe(1004)
}, 120_000)
