// DESIGN.md's dependency rule, enforced over the real import graph: the domain stays pure and no
// adapter package imports another.
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { checkImport, importsOf, violationsIn } from "./import-graph.js"

const root = fileURLToPath(new URL("../..", import.meta.url))

describe("dependency rule", () => {
  it("holds for every source file of every package", () => {
    expect(violationsIn(root)).toEqual([])
  })

  it("sees static, type-only, re-export and dynamic imports", () => {
    const source = [
      'import { a } from "node:fs"',
      'import type { B } from "@effect/sql"',
      'export * from "@aws-sdk/client-s3"',
      'const m = await import("@modelcontextprotocol/sdk")'
    ].join("\n")
    expect(importsOf(source)).toEqual([
      "node:fs",
      "@effect/sql",
      "@aws-sdk/client-s3",
      "@modelcontextprotocol/sdk"
    ])
  })

  it.each([
    "node:fs",
    "fs",
    "@effect/platform",
    "@effect/platform-node/NodeHttpServer",
    "@effect/sql",
    "@effect/sql-pg",
    "@aws-sdk/client-s3",
    "@modelcontextprotocol/sdk/server/mcp.js",
    "@folio/adapters-storage"
  ])("rejects %s in the domain", (specifier) => {
    const file = `${root}packages/domain/src/kernel/x.ts`
    expect(checkImport(root, "domain", { file, specifier })).toBeDefined()
  })

  it("allows effect and pure helpers in the domain", () => {
    const file = `${root}packages/domain/src/kernel/x.ts`
    for (const specifier of ["effect", "effect/Schema", "@noble/hashes/sha2", "./y.js"]) {
      expect(checkImport(root, "domain", { file, specifier })).toBeUndefined()
    }
  })

  it("rejects one adapter importing another, by name or by relative path", () => {
    const file = `${root}packages/adapters-http/src/x.ts`
    expect(checkImport(root, "adapters-http", { file, specifier: "@folio/adapters-storage" })).toBeDefined()
    expect(
      checkImport(root, "adapters-http", { file, specifier: "../../adapters-mcp/src/y.js" })
    ).toBeDefined()
    expect(checkImport(root, "adapters-http", { file, specifier: "@folio/domain" })).toBeUndefined()
  })

  it("lets the app import every package", () => {
    const file = `${root}packages/app/src/x.ts`
    expect(checkImport(root, "app", { file, specifier: "@folio/adapters-storage" })).toBeUndefined()
  })
})
