// One scope table for the sharing API: every SharingApi endpoint names an operation of the domain's
// SHARING_OPERATION_SCOPES (and the table names nothing else), each handler runs exactly its own
// operation through sharingRoute (a scan of the feature folders' Http.ts), and the served OpenAPI
// document states each operation's scopes from the same table.
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { keyedEndpointsOf } from "@folio/adapters-http/shared"
import { SHARING_OPERATION_SCOPES, sharingOperationScopes } from "@folio/domain"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { parse } from "yaml"
import { SharingApi } from "../../packages/adapters-http/src/sharing/Api.js"
import { type RunningApp, startApp } from "../support/app.js"
import { type OpenApiDocument, repositoryRoot } from "../support/openapi.js"

const SHARING_SOURCE = join(repositoryRoot, "packages/adapters-http/src/sharing")
const TABLE = Object.keys(SHARING_OPERATION_SCOPES).sort()

/** Every endpoint of SharingApi as `<group>.<endpoint>`, keyed or not. */
const allEndpoints = () =>
  Object.values(
    SharingApi.groups as unknown as Readonly<
      Record<string, { readonly identifier: string; readonly endpoints: Readonly<Record<string, unknown>> }>
    >
  )
    .flatMap((group) => Object.keys(group.endpoints).map((name) => `${group.identifier}.${name}`))
    .sort()

/** The handler files of the sharing feature folders, each with the group it builds. */
const handlerFiles = () =>
  readdirSync(SHARING_SOURCE, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const file = join(SHARING_SOURCE, entry.name, "Http.ts")
      let source: string
      try {
        source = readFileSync(file, "utf8")
      } catch {
        return []
      }
      const group = /HttpApiBuilder\.group\(\s*SharingApi,\s*"(\w+)"/.exec(source)?.[1]
      return group === undefined ? [] : [{ file: `${entry.name}/Http.ts`, group, source }]
    })

/** Each `.handle("x", ...)` of a source with the operations its body passes to sharingRoute. */
const handlersOf = (source: string) => {
  const starts = [...source.matchAll(/\.handle\("(\w+)"/g)]
  return starts.map((start, i) => {
    const body = source.slice(start.index, starts[i + 1]?.index ?? source.length)
    return {
      name: start[1] ?? "",
      operations: [...body.matchAll(/sharingRoute\(\s*"([^"]+)"/g)].map((m) => m[1])
    }
  })
}

describe("the sharing scope table", () => {
  it("names the operation of every SharingApi endpoint, and nothing else", () => {
    const keyed = keyedEndpointsOf(SharingApi, (group, endpoint) =>
      sharingOperationScopes(`${group}.${endpoint}`)
    )
    // Every endpoint takes a key, so every one has its scopes in the table.
    expect(keyed.map((e) => `${e.group}.${e.name}`).sort()).toEqual(allEndpoints())
    expect(allEndpoints()).toEqual(TABLE)
    for (const e of keyed) expect(e.scopes, `${e.group}.${e.name}`).toBeDefined()
  })

  it("is what each handler checks: every .handle(x) of group g runs sharingRoute(g.x) and nothing else", () => {
    const files = handlerFiles()
    expect(files.map((f) => f.group).sort()).toEqual([...new Set(TABLE.map((op) => op.split(".")[0]))].sort())
    const handled: Array<string> = []
    for (const { file, group, source } of files) {
      // The one shape: no scope check or error mapping written by hand beside the combinator.
      expect(/requireScopes\(|SharingErrors\.fail\b/.test(source), file).toBe(false)
      for (const { name, operations } of handlersOf(source)) {
        expect(operations, `${file} .handle("${name}")`).toEqual([`${group}.${name}`])
        handled.push(`${group}.${name}`)
      }
    }
    expect(handled.sort()).toEqual(TABLE)
  })

  describe("in the served OpenAPI document", () => {
    let app: RunningApp
    let doc: OpenApiDocument
    beforeAll(async () => {
      app = await startApp()
      doc = parse(await (await fetch(`${app.origin}/share/api/v1/openapi.yaml`)).text())
    })
    afterAll(async () => {
      await app.close()
    })

    it("gives each operation's bearer requirement the table's scopes, and its summary says the same", () => {
      const seen: Array<string> = []
      for (const [path, methods] of Object.entries(doc.paths)) {
        for (const [method, op] of Object.entries(methods)) {
          // The document's own route is public (checked in sharing-openapi-lint.test.ts).
          if (path === "/openapi.yaml") continue
          const scopes = sharingOperationScopes(op.operationId)
          expect(scopes, `${method} ${path} ${op.operationId}`).toBeDefined()
          expect(op.security, op.operationId).toEqual([{ bearer: scopes }])
          const summary = (op as { readonly summary?: string }).summary ?? ""
          expect(/\(scope (\w+)/.exec(summary)?.[1], op.operationId).toBe(scopes?.join(", "))
          seen.push(op.operationId)
        }
      }
      expect(seen.sort()).toEqual(TABLE)
    })
  })
})
