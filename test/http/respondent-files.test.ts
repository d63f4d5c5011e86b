// A respondent file round trip through each real blob store: the fs adapter (HMAC-signed local
// URL) and the S3 adapter against s3rver (presigned URL). Upload on the public route, reference
// the key in the answer, read the response's files, follow the 302 with plain fetch.
import { FORMS_SCOPES } from "@folio/domain"
import { Option, Redacted } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type RunningApp, startApp } from "../support/app.js"
import { bearer, newWorkspaceKey } from "../support/keys.js"
import { startS3 } from "../support/s3.js"
import { blk, PNG, photoFormDefinition } from "../support/builders.js"

const definition = photoFormDefinition

for (const store of ["fs", "s3"] as const) {
  describe(`respondent files [${store}]`, () => {
    let app: RunningApp
    let key: string
    let s3: Awaited<ReturnType<typeof startS3>> | undefined

    beforeAll(async () => {
      if (store === "s3") s3 = await startS3()
      app = await startApp({
        config: {
          rateLimitPerKey: 100_000,
          blobStore: store,
          s3:
            s3 === undefined
              ? Option.none()
              : Option.some({ ...s3.options, secretAccessKey: Redacted.make(s3.options.secretAccessKey) })
        }
      })
      key = (await newWorkspaceKey(app, [...FORMS_SCOPES])).key
    }, 60_000)
    afterAll(async () => {
      await app?.close()
      await s3?.close()
    })

    const api = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${app.origin}/forms/api/v1${path}`, {
        method,
        headers: { ...bearer(key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      return (await response.json()) as { data: Record<string, unknown> }
    }

    it("stores the upload, lists it on the response and serves it through a signed URL", async () => {
      const form = (await api("POST", "/forms", { title: "Photos", definition })).data as {
        id: string
        slug: string
      }
      await api("POST", `/forms/${form.id}/publish`, { expectedDraftRevision: 1 })
      const started = (await (
        await fetch(`${app.origin}/f/${form.slug}/responses`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: "{}"
        })
      ).json()) as { data: { responseId: string; token: string } }
      const { responseId, token } = started.data
      const uploaded = await fetch(
        `${app.origin}/f/${form.slug}/responses/${responseId}/files?blockId=${blk(2)}&filename=me.png`,
        {
          method: "POST",
          headers: { "x-response-token": token, "content-type": "application/octet-stream" },
          body: PNG
        }
      )
      expect(uploaded.status).toBe(201)
      const file = ((await uploaded.json()) as { data: { key: string; contentType: string } }).data
      expect(file.contentType).toBe("image/png")
      const done = await fetch(`${app.origin}/f/${form.slug}/responses/${responseId}/complete`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token, answers: { [blk(1)]: "Ann", [blk(2)]: [file.key] } })
      })
      expect(done.status).toBe(200)

      const detail = (await api("GET", `/forms/${form.id}/responses/${responseId}`)).data as {
        files: Array<{ key: string; filename: string; downloadUrl: string }>
      }
      expect(detail.files).toHaveLength(1)
      expect(detail.files[0]).toMatchObject({ key: file.key, filename: "me.png" })
      const redirect = await fetch(detail.files[0]?.downloadUrl ?? "", {
        headers: bearer(key),
        redirect: "manual"
      })
      expect(redirect.status).toBe(302)
      const location = redirect.headers.get("location") ?? ""
      expect(
        location.startsWith(store === "s3" ? (s3?.options.endpoint ?? "-") : `${app.origin}/blobs/`)
      ).toBe(true)
      const served = await fetch(location)
      expect(served.status).toBe(200)
      expect(new Uint8Array(await served.arrayBuffer())).toEqual(PNG)
      // The signed URL is bound to its object: another key with the same signature is refused.
      if (store === "fs") {
        const tampered = location.replace(responseId, crypto.randomUUID())
        expect((await fetch(tampered)).status).toBe(403)
      }
    }, 60_000)
  })
}
