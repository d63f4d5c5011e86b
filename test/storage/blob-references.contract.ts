// Contract of BlobReferences, run by register-contracts.ts against every storage target: which keys
// the rows name (a response file, form images in a draft, settings or a published version, a live
// resource's files and collection copies, its artifact objects and Notion assets, its previews),
// which they do not (a deleted resource's, a key never stored, a staging object), and every named
// key read back a page at a time.
import {
  ArtifactDeployments,
  BlobReferences,
  type DeploymentRecord,
  FormRepository,
  type NotionAssetRecord,
  NotionMirrors,
  ResourceRepository,
  ResponseRepository
} from "@folio/domain"
import { Effect, Stream } from "effect"
import { describe, expect, it } from "vitest"
import type { StorageHarness } from "../support/with-storage.js"
import { at, next, resource, response, storedForms, uuid } from "./fixtures.js"

export const registerBlobReferenceContracts = ({ target, run, newWorkspace }: StorageHarness) => {
  const { insertForm, publish } = storedForms(run)
  const referenced = (keys: ReadonlyArray<string>) =>
    run(Effect.flatMap(BlobReferences, (r) => r.referenced(keys)))
  const all = () => run(Effect.flatMap(BlobReferences, (r) => Stream.runCollect(r.all)))

  describe(`BlobReferences [${target}]`, () => {
    it("names the keys every kind of row holds, and none of a deleted resource or of no row", async () => {
      const ws = await newWorkspace()
      const assetKey = (formId: string) => `workspaces/${ws.id}/forms/${formId}/assets/${uuid()}.png`

      // Forms: an image in a draft block, a logo in settings, an image only in a published version.
      const draftForm = uuid()
      const inDraft = assetKey(draftForm)
      const logo = assetKey(draftForm)
      const inVersion = assetKey(draftForm)
      const neverUsed = assetKey(draftForm)
      const f = await insertForm(ws.id, {
        id: draftForm,
        draftDefinition: {
          schemaVersion: 1,
          blocks: [{ id: "blk_aaaaaaaa", type: "image", imageKey: inVersion }]
        },
        settings: { locale: "en", theme: { logoKey: logo } }
      })
      const { version, published } = await publish(f)
      // The draft moves on: the version keeps its image, the draft names another.
      await run(
        Effect.flatMap(FormRepository, (repo) =>
          repo.save(
            next(published, {
              draftDefinition: {
                schemaVersion: 1,
                blocks: [
                  {
                    id: "blk_bbbbbbbb",
                    type: "single_choice",
                    options: { choices: [{ id: "c1", label: "A", imageKey: inDraft }] }
                  }
                ]
              },
              draftRevision: published.draftRevision + 1
            })
          )
        )
      )

      // A respondent's file, and one written whose row never committed.
      const r = response(f, version.id)
      await run(Effect.flatMap(ResponseRepository, (repo) => repo.insert(r)))
      const fileKey = (id: string) => `workspaces/${ws.id}/forms/${f.id}/responses/${r.id}/${id}`
      const fileId = uuid()
      await run(
        Effect.flatMap(ResponseRepository, (repo) =>
          repo.insertFile({
            id: fileId,
            workspaceId: ws.id,
            formId: f.id,
            responseId: r.id,
            blockId: "blk_cccccccc",
            key: fileKey(fileId),
            filename: "f.pdf",
            contentType: "application/pdf",
            size: 1,
            createdAt: at("2026-03-01T00:00:00.000Z")
          })
        )
      )
      const unstoredFile = fileKey(uuid())

      // Sharing: a file resource (its blob and a preview), a collection with a copy, an artifact
      // with two deployments sharing an object, a Notion mirror's asset, and a deleted file.
      const file = resource(ws.id, "file")
      const fileBlob = `sharing/${ws.id}/${file.id}/${uuid()}`
      await run(
        Effect.flatMap(ResourceRepository, (repo) =>
          repo.insert({ ...file, data: { ...file.data, blobKey: fileBlob } })
        )
      )
      const preview = `sharing/${ws.id}/${file.id}/previews/abc123.webp`
      const staging = `sharing/${ws.id}/${file.id}/staging/${uuid()}`

      const collection = resource(ws.id, "collection")
      const copy = `sharing/${ws.id}/${collection.id}/items/${uuid()}`
      await run(
        Effect.flatMap(ResourceRepository, (repo) =>
          repo.insert({
            ...collection,
            data: {
              ...collection.data,
              items: [
                {
                  id: uuid(),
                  kind: "file",
                  file: { blobKey: copy, fileName: "a.pdf", contentType: "application/pdf", size: 1 },
                  displayName: null,
                  caption: null,
                  sourceResourceId: file.id,
                  addedAt: "2026-04-01T10:00:00.000Z"
                }
              ]
            }
          } as typeof collection)
        )
      )

      const artifact = resource(ws.id, "artifact")
      const shared = "a".repeat(64)
      const onlyFirst = "b".repeat(64)
      const deployment = (number: number, shas: ReadonlyArray<string>): DeploymentRecord => ({
        id: uuid(),
        tenantId: ws.id,
        resourceId: artifact.id,
        number,
        baseDeploymentId: null,
        files: shas.map((sha256, i) => ({ path: `f${i}.html`, sha256, size: 1 })),
        entryPath: "f0.html",
        siteBytes: shas.length,
        createdAt: at("2026-06-01T12:00:00.000Z")
      })
      const first = deployment(1, [shared, onlyFirst])
      await run(Effect.flatMap(ArtifactDeployments, (d) => d.insert(first)))
      await run(
        Effect.flatMap(ResourceRepository, (repo) =>
          repo.insert({
            ...artifact,
            data: { ...artifact.data, deploymentId: first.id, deploymentNumber: 1 }
          })
        )
      )
      await run(Effect.flatMap(ArtifactDeployments, (d) => d.insert(deployment(2, [shared]))))
      const objectKey = (sha: string) => `sharing/${ws.id}/${artifact.id}/objects/${sha}`
      const unnamedObject = objectKey("c".repeat(64))

      const mirror = resource(ws.id, "notion")
      await run(Effect.flatMap(ResourceRepository, (repo) => repo.insert(mirror)))
      const notionAsset: NotionAssetRecord = {
        id: uuid(),
        resourceId: mirror.id,
        tenantId: ws.id,
        pageId: "p0",
        blockId: "b0",
        blobKey: `sharing/${ws.id}/${mirror.id}/notion/${uuid()}`,
        contentType: "image/png",
        bytes: 1,
        name: "b0.png",
        fingerprint: "https://files.example/b0",
        createdAt: at("2026-06-01T00:00:00.000Z")
      }
      await run(
        Effect.flatMap(NotionMirrors, (m) =>
          m.save(
            ws.id,
            mirror.id,
            {
              scope: { _tag: "whole" },
              pages: [],
              assets: [notionAsset],
              at: at("2026-06-01T00:00:00.000Z")
            },
            undefined
          )
        )
      )

      const gone = resource(ws.id, "image")
      const goneBlob = `sharing/${ws.id}/${gone.id}/${uuid()}`
      await run(
        Effect.flatMap(ResourceRepository, (repo) =>
          Effect.andThen(
            repo.insert({ ...gone, data: { ...gone.data, blobKey: goneBlob } }),
            repo.softDelete(ws.id, gone.id, at("2026-06-02T00:00:00.000Z"))
          )
        )
      )
      const goneResourcePreview = `sharing/${ws.id}/${gone.id}/previews/abc.webp`

      const named = [
        inDraft,
        logo,
        inVersion,
        fileKey(fileId),
        fileBlob,
        preview,
        copy,
        objectKey(shared),
        objectKey(onlyFirst),
        notionAsset.blobKey
      ]
      const unnamed = [neverUsed, unstoredFile, staging, unnamedObject, goneBlob, goneResourcePreview]
      // A key of a shape no service writes is never called an orphan.
      const unknownShape = "legacy/some-object.bin"

      const answer = await referenced([...named, ...unnamed, unknownShape])
      expect([...answer].sort()).toEqual([...named, unknownShape].sort())
      expect(await referenced([])).toEqual(new Set())

      // Every named key comes back from the whole enumeration (the preview is drawn, not named).
      const enumerated = new Set(await all())
      for (const key of named.filter((k) => k !== preview)) expect(enumerated.has(key)).toBe(true)
      for (const key of unnamed) expect(enumerated.has(key)).toBe(false)
    })

    it("reads every named key however many pages of rows it takes", async () => {
      const ws = await newWorkspace()
      const keys: Array<string> = []
      for (let i = 0; i < 520; i++) {
        const file = resource(ws.id, "file")
        const key = `sharing/${ws.id}/${file.id}/${uuid()}`
        keys.push(key)
        await run(
          Effect.flatMap(ResourceRepository, (repo) =>
            repo.insert({ ...file, data: { ...file.data, blobKey: key } })
          )
        )
      }
      const enumerated = new Set(await all())
      expect(keys.filter((k) => !enumerated.has(k))).toEqual([])
      expect([...(await referenced(keys))].length).toBe(keys.length)
    }, 120_000)
  })
}
