// The BlobStore contract, run against every adapter: binary round trips, metadata, deletes, key
// validation, signed URLs that really serve the bytes over HTTP (and refuse when tampered), and
// streamed writes (stopped past their limit, all or nothing) and reads (whole or a byte range).
import { BlobStore } from "@folio/domain"
import { Effect, Option, Result, Stream } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

export interface BlobTarget {
  readonly name: "memory" | "fs" | "s3"
  readonly open: () => Promise<{
    readonly run: <A, E>(effect: Effect.Effect<A, E, BlobStore>) => Promise<A>
    readonly close: () => Promise<void>
  }>
}

const allBytes = Uint8Array.from({ length: 256 }, (_, i) => i)

export const registerBlobContract = (target: BlobTarget) =>
  describe(`BlobStore [${target.name}]`, () => {
    let opened: Awaited<ReturnType<BlobTarget["open"]>> | undefined
    const run = <A, E>(effect: Effect.Effect<A, E, BlobStore>) => {
      if (opened === undefined) throw new Error("not opened")
      return opened.run(effect)
    }
    const store = <A, E>(f: (s: BlobStore["Service"]) => Effect.Effect<A, E>) =>
      run(Effect.flatMap(BlobStore, f))
    const key = () => `forms/${Math.random().toString(36).slice(2)}/asset.bin`

    beforeAll(async () => {
      opened = await target.open()
    }, 60_000)
    afterAll(async () => {
      await opened?.close()
    })

    it("round-trips every byte value with its content type, and overwrites", async () => {
      const k = key()
      await store((s) => s.put(k, { bytes: allBytes, contentType: "application/octet-stream" }))
      const got = Option.getOrThrow(await store((s) => s.get(k)))
      expect(Array.from(got.bytes)).toEqual(Array.from(allBytes))
      expect(got.contentType).toBe("application/octet-stream")
      await store((s) => s.put(k, { bytes: new TextEncoder().encode("second"), contentType: "text/plain" }))
      const again = Option.getOrThrow(await store((s) => s.get(k)))
      expect(new TextDecoder().decode(again.bytes)).toBe("second")
      expect(again.contentType).toBe("text/plain")
    })

    it("reports metadata, answers none for missing objects, and deletes", async () => {
      const k = key()
      expect(Option.isNone(await store((s) => s.get(k)))).toBe(true)
      expect(Option.isNone(await store((s) => s.head(k)))).toBe(true)
      await store((s) => s.put(k, { bytes: allBytes, contentType: "image/png" }))
      expect(Option.getOrThrow(await store((s) => s.head(k)))).toEqual({
        size: 256,
        contentType: "image/png"
      })
      await store((s) => s.delete(k))
      expect(Option.isNone(await store((s) => s.get(k)))).toBe(true)
      await store((s) => s.delete(k)) // deleting twice is fine
    })

    it("moves an object to another key with its type, replacing what was there", async () => {
      const from = key()
      const to = key()
      await store((s) => s.put(from, { bytes: allBytes, contentType: "image/png" }))
      await store((s) => s.put(to, { bytes: new TextEncoder().encode("old"), contentType: "text/plain" }))
      expect(await store((s) => s.move(from, to))).toBe(true)
      expect(Option.isNone(await store((s) => s.head(from)))).toBe(true)
      const moved = Option.getOrThrow(await store((s) => s.get(to)))
      expect(Array.from(moved.bytes)).toEqual(Array.from(allBytes))
      expect(moved.contentType).toBe("image/png")
      expect(await store((s) => s.move(from, key()))).toBe(false)
    })

    it("deletes every object under a prefix and nothing beside it", async () => {
      const folder = `sharing/${Math.random().toString(36).slice(2)}`
      const inside = [`${folder}/a/one.bin`, `${folder}/a/two.bin`, `${folder}/a/deeper/three.bin`]
      const beside = [`${folder}/ab/kept.bin`, `${folder}/b/kept.bin`]
      for (const k of [...inside, ...beside])
        await store((s) => s.put(k, { bytes: allBytes, contentType: "application/octet-stream" }))
      await store((s) => s.deletePrefix(`${folder}/a/`))
      for (const k of inside) expect(Option.isNone(await store((s) => s.head(k)))).toBe(true)
      for (const k of beside) expect(Option.isSome(await store((s) => s.head(k)))).toBe(true)
      await store((s) => s.deletePrefix(`${folder}/a/`)) // an empty prefix is fine
      const bad = await run(Effect.result(Effect.flatMap(BlobStore, (s) => s.deletePrefix(`${folder}/..`))))
      expect(Result.isFailure(bad)).toBe(true)
      const noSlash = await run(Effect.result(Effect.flatMap(BlobStore, (s) => s.deletePrefix(folder))))
      expect(Result.isFailure(noSlash)).toBe(true)
    })

    it("lists the objects under a prefix (or all) with their size and when they were written", async () => {
      const folder = `listing/${Math.random().toString(36).slice(2)}`
      const inside = [`${folder}/a/one.bin`, `${folder}/a/deeper/two.bin`]
      const beside = `${folder}/ab/beside.bin`
      // S3 keeps LastModified to the second: the window is widened by one on each side.
      const before = Date.now() - 1000
      for (const [i, k] of [...inside, beside].entries())
        await store((s) => s.put(k, { bytes: allBytes.subarray(0, 10 + i), contentType: "text/plain" }))
      const after = Date.now() + 1000
      const listed = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list(`${folder}/a/`))))
      expect(listed.map((l) => l.key).sort()).toEqual([...inside].sort())
      for (const l of listed) {
        expect(l.size).toBe(10 + inside.indexOf(l.key))
        expect(l.lastModified.getTime()).toBeGreaterThanOrEqual(before)
        expect(l.lastModified.getTime()).toBeLessThanOrEqual(after)
      }
      const everything = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list())))
      const keys = new Set(everything.map((l) => l.key))
      for (const k of [...inside, beside]) expect(keys.has(k)).toBe(true)
      // No type file, no folder, no duplicate: one entry per object.
      expect(everything.filter((l) => l.key.startsWith(`${folder}/`)).length).toBe(3)
      expect(keys.size).toBe(everything.length)
      await store((s) => s.delete(beside))
      const gone = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list(`${folder}/`))))
      expect(gone.map((l) => l.key).sort()).toEqual([...inside].sort())
      expect(await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list("nothing-here/"))))).toEqual(
        []
      )
      const bad = await run(Effect.result(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list("../")))))
      expect(Result.isFailure(bad)).toBe(true)
    })

    // s3rver cannot page: its continuation token is DES-encrypted, which OpenSSL 3 refuses (HTTP 500
    // on any truncated listing). S3 paging is run against s3rver in a process of its own with the
    // legacy provider (test/storage/blob-list-s3-paging.test.ts).
    it.skipIf(target.name === "s3")("lists past one page of keys", { timeout: 60_000 }, async () => {
      const folder = `paged/${Math.random().toString(36).slice(2)}`
      const keys = Array.from({ length: 1003 }, (_, i) => `${folder}/${String(i).padStart(4, "0")}`)
      await run(
        Effect.flatMap(BlobStore, (s) =>
          Effect.forEach(keys, (k) => s.put(k, { bytes: allBytes.subarray(0, 1), contentType: "x/y" }), {
            concurrency: 16,
            discard: true
          })
        )
      )
      const listed = await run(Effect.flatMap(BlobStore, (s) => Stream.runCollect(s.list(`${folder}/`))))
      expect(listed.map((l) => l.key).sort()).toEqual(keys)
    })

    it.each(["../escape", "/absolute", "", "a//b", "a/./b", "spaces are bad", "x/.."])(
      "rejects the invalid key %j",
      async (bad) => {
        const put = await run(
          Effect.result(Effect.flatMap(BlobStore, (s) => s.put(bad, { bytes: allBytes, contentType: "x/y" })))
        )
        expect(Result.isFailure(put) && put.failure._tag).toBe("StorageError")
        const get = await run(Effect.result(Effect.flatMap(BlobStore, (s) => s.get(bad))))
        expect(Result.isFailure(get)).toBe(true)
      }
    )

    it("issues a signed URL that serves the bytes, and a tampered one that does not", async () => {
      const k = key()
      await store((s) => s.put(k, { bytes: allBytes, contentType: "image/webp" }))
      const url = await store((s) => s.signedUrl(k, { expiresInSeconds: 60, filename: "résumé photo.webp" }))
      const response = await fetch(url)
      expect(response.status).toBe(200)
      expect(Array.from(new Uint8Array(await response.arrayBuffer()))).toEqual(Array.from(allBytes))
      expect(response.headers.get("content-disposition")).toContain(
        "filename*=UTF-8''r%C3%A9sum%C3%A9%20photo.webp"
      )

      const tampered = new URL(url)
      const sigParam = tampered.searchParams.has("sig") ? "sig" : "X-Amz-Signature"
      const sig = tampered.searchParams.get(sigParam) ?? ""
      tampered.searchParams.set(sigParam, `${sig.slice(0, -1)}${sig.endsWith("0") ? "1" : "0"}`)
      const denied = await fetch(tampered)
      // s3rver checks no signatures (see STACK.md); every adapter we sign ourselves must refuse.
      if (target.name !== "s3") expect(denied.status).toBe(403)
      await denied.arrayBuffer()
    })

    /**
     * `total` bytes of a repeating pattern in chunks of `chunk` bytes, delivered four chunks at a
     * time (a store writes each delivery at once; a large write still spans several S3 parts).
     */
    const pattern = (total: number, chunk: number) =>
      Stream.fromIterable(
        Array.from({ length: Math.ceil(total / chunk) }, (_, i) =>
          Uint8Array.from({ length: Math.min(chunk, total - i * chunk) }, (_, j) => (i * chunk + j) % 251)
        )
      ).pipe(Stream.rechunk(4))
    const readAll = (k: string, range?: { start: number; end: number }) =>
      store((s) =>
        Effect.flatMap(s.openRead(k, range), (found) =>
          Option.match(found, {
            onNone: () => Effect.succeed(undefined),
            onSome: (o) =>
              Effect.map(Stream.runCollect(o.body), (chunks) => {
                const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0))
                let at = 0
                for (const c of chunks) {
                  bytes.set(c, at)
                  at += c.byteLength
                }
                return { size: o.size, contentType: o.contentType, bytes }
              })
          })
        )
      )

    it("streams a write in (over several S3 parts) and reads it back whole and by range", async () => {
      const k = key()
      const total = 11 * 1024 * 1024 + 123
      const written = await store((s) =>
        s.putStream(k, pattern(total, 64 * 1024), { contentType: "video/mp4", maxBytes: total })
      )
      expect(written).toEqual({ size: total })
      expect(Option.getOrThrow(await store((s) => s.head(k)))).toEqual({
        size: total,
        contentType: "video/mp4"
      })
      const whole = await readAll(k)
      expect(whole?.size).toBe(total)
      expect(whole?.bytes.byteLength).toBe(total)
      expect(whole?.bytes.every((b, i) => b === i % 251)).toBe(true)
      const middle = await readAll(k, { start: 6_000_000, end: 6_000_009 })
      expect(Array.from(middle?.bytes ?? [])).toEqual(
        Array.from({ length: 10 }, (_, i) => (6_000_000 + i) % 251)
      )
      expect(middle?.size).toBe(total)
      // A range past the end is cut at the last byte.
      const tail = await readAll(k, { start: total - 3, end: total + 100 })
      expect(tail?.bytes.byteLength).toBe(3)
      expect(await readAll(`${k}-missing`)).toBeUndefined()
    }, 60_000)

    it("stores a small streamed write, and an empty one", async () => {
      const k = key()
      expect(
        await store((s) => s.putStream(k, pattern(1000, 300), { contentType: "text/plain", maxBytes: 1000 }))
      ).toEqual({
        size: 1000
      })
      expect((await readAll(k))?.bytes.byteLength).toBe(1000)
      const empty = key()
      await store((s) => s.putStream(empty, Stream.empty, { contentType: "text/plain", maxBytes: 10 }))
      expect(await readAll(empty)).toMatchObject({ size: 0, contentType: "text/plain" })
    })

    it("stops a write one byte past its limit, or when its body fails, and leaves the key as it was", async () => {
      const k = key()
      await store((s) => s.put(k, { bytes: allBytes, contentType: "image/png" }))
      const over = await run(
        Effect.result(
          Effect.flatMap(BlobStore, (s) =>
            s.putStream(k, pattern(6 * 1024 * 1024 + 1, 256 * 1024), {
              contentType: "video/mp4",
              maxBytes: 6 * 1024 * 1024
            })
          )
        )
      )
      expect(Result.isFailure(over) && over.failure._tag).toBe("BlobTooLarge")
      const broken = await run(
        Effect.result(
          Effect.flatMap(BlobStore, (s) =>
            s.putStream(
              k,
              Stream.concat(pattern(6 * 1024 * 1024, 512 * 1024), Stream.fail("client went away")),
              {
                contentType: "video/mp4",
                maxBytes: 100 * 1024 * 1024
              }
            )
          )
        )
      )
      expect(Result.isFailure(broken) && broken.failure).toBe("client went away")
      const kept = Option.getOrThrow(await store((s) => s.get(k)))
      expect(kept.contentType).toBe("image/png")
      expect(Array.from(kept.bytes)).toEqual(Array.from(allBytes))
      const fresh = key()
      await run(
        Effect.result(
          Effect.flatMap(BlobStore, (s) =>
            s.putStream(fresh, pattern(2000, 500), { contentType: "text/plain", maxBytes: 1999 })
          )
        )
      )
      expect(Option.isNone(await store((s) => s.head(fresh)))).toBe(true)
    }, 60_000)

    it("issues URLs that stop working when they expire", async () => {
      const k = key()
      await store((s) => s.put(k, { bytes: allBytes, contentType: "image/gif" }))
      const url = await store((s) => s.signedUrl(k, { expiresInSeconds: 1 }))
      await new Promise((resolve) => setTimeout(resolve, 2_100))
      const response = await fetch(url)
      expect(response.status).toBe(403)
      await response.arrayBuffer()
    })
  })
