// The research retention sweep as the app runs it: on its interval it deletes the responses of a
// research form started longer ago than its retentionDays, with their file rows and blobs, and
// leaves newer responses and forms without compliance alone.
import { MemoryBlobStoreLive, MemoryStorageLive, responseRetention } from "@folio/adapters-storage"
import { BlobStore, FormRepository, type ResponseRecord, ResponseRepository } from "@folio/domain"
import { it } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Scope } from "effect"
import { describe, expect } from "vitest"
import { form, response } from "../storage/fixtures.js"

const DAY = 24 * 60 * 60 * 1000

describe("research retention sweep", () => {
  it.live("deletes responses past retentionDays with their files on its interval", () =>
    Effect.gen(function* () {
      const ports = Layer.merge(
        MemoryStorageLive,
        MemoryBlobStoreLive({ publicOrigin: "http://localhost", signingSecret: "s" })
      )
      const context = yield* Layer.build(ports)
      const run = <A, E>(effect: Effect.Effect<A, E, FormRepository | ResponseRepository | BlobStore>) =>
        Effect.provideContext(effect, context)
      const ws = crypto.randomUUID()
      const study = form(ws, {
        settings: {
          researchCompliance: {
            purpose: "p",
            contact: "c",
            consentItems: ["i"],
            retentionDays: 7
          }
        }
      })
      const plain = form(ws)
      const now = Date.now()
      const made = (f: typeof study, daysAgo: number): ResponseRecord =>
        response(f, crypto.randomUUID(), { createdAt: new Date(now - daysAgo * DAY) })
      const old = made(study, 8)
      const fresh = made(study, 6)
      const plainOld = made(plain, 400)
      const key = `workspaces/${ws}/forms/${study.id}/responses/${old.id}/f`
      yield* run(
        Effect.gen(function* () {
          const forms = yield* FormRepository
          const responses = yield* ResponseRepository
          yield* forms.insert(study)
          yield* forms.insert(plain)
          for (const r of [old, fresh, plainOld]) yield* responses.insert(r)
          yield* Effect.flatMap(BlobStore, (b) =>
            b.put(key, { bytes: new Uint8Array([1]), contentType: "text/plain" })
          )
          yield* responses.insertFile({
            id: crypto.randomUUID(),
            workspaceId: ws,
            formId: study.id,
            responseId: old.id,
            blockId: "blk_files",
            key,
            filename: "f.txt",
            contentType: "text/plain",
            size: 1,
            createdAt: old.createdAt
          })
        })
      )
      const scope = yield* Scope.make()
      yield* Layer.buildWithScope(
        Layer.provide(responseRetention("20 millis"), Layer.succeedContext(context)),
        scope
      )
      yield* Effect.sleep("120 millis")
      yield* Scope.close(scope, Exit.void)
      const left = yield* run(
        Effect.gen(function* () {
          const responses = yield* ResponseRepository
          return {
            old: Option.isSome(yield* responses.get(ws, study.id, old.id)),
            fresh: Option.isSome(yield* responses.get(ws, study.id, fresh.id)),
            plainOld: Option.isSome(yield* responses.get(ws, plain.id, plainOld.id)),
            files: (yield* responses.listFiles(ws, study.id, [old.id])).length,
            blob: Option.isSome(yield* Effect.flatMap(BlobStore, (b) => b.get(key)))
          }
        })
      )
      expect(left).toEqual({ old: false, fresh: true, plainOld: true, files: 0, blob: false })
    })
  )
})
