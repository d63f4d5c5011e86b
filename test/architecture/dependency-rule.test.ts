// DESIGN.md's dependency rule, enforced over the real import graph: the domain stays pure, its
// bounded contexts import only what they may (kernel nothing, identity no service, the services not
// each other), and no adapter package imports another; and over the domain's code: no timer, fiber,
// cache, randomness or wall-clock read.
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import {
  checkImport,
  cyclesOf,
  importGraphOf,
  importsOf,
  PACKAGES,
  runtimeClosure,
  valueImportsOf,
  violationsIn
} from "./import-graph.js"
import { runtimeUsesIn, runtimeUsesOf } from "./runtime-uses.js"

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
    for (const specifier of ["effect", "effect/Schema", "@noble/hashes/sha2", "safe-regex2", "./y.js"]) {
      expect(checkImport(root, "domain", { file, specifier })).toBeUndefined()
    }
  })

  describe("between the domain's bounded contexts", () => {
    const domainFile = (path: string) => `${root}packages/domain/src/${path}`
    const check = (path: string, specifier: string) =>
      checkImport(root, "domain", { file: domainFile(path), specifier })

    it.each([
      ["identity/x.ts", "../forms/scopes.js", "identity imports forms"],
      ["identity/ports/x.ts", "../../sharing/links.js", "identity imports sharing"],
      ["forms/x.ts", "../sharing/links.js", "forms imports sharing"],
      ["forms/responses/x.ts", "../../sharing/links.js", "forms imports sharing"],
      ["sharing/x.ts", "../forms/form.js", "sharing imports forms"],
      ["kernel/x.ts", "../identity/principal.js", "the kernel imports no context (identity)"],
      ["kernel/ports/x.ts", "../../forms/ports/forms.js", "the kernel imports no context (forms)"],
      ["kernel/x.ts", "../sharing/links.js", "the kernel imports no context (sharing)"],
      ["kernel/jobs/x.ts", "../../sharing/jobs/use-cases.js", "the kernel imports no context (sharing)"],
      ["forms/x.ts", "../sharing/jobs/index.js", "forms imports sharing"],
      ["identity/x.ts", "../index.js", "identity imports the domain's index"],
      ["forms/x.ts", "../index.js", "forms imports the domain's index"]
    ])("rejects %s importing %s", (path, specifier, rule) => {
      expect(check(path, specifier)?.rule).toBe(rule)
    })

    it("rejects domain code outside the bounded contexts", () => {
      expect(check("ports/x.ts", "effect")?.rule).toMatch(/lives in a bounded context .* not in ports\//)
    })

    it.each([
      ["identity/x.ts", "../kernel/errors.js"],
      ["identity/ports/x.ts", "../principal.js"],
      ["forms/x.ts", "../identity/principal.js"],
      ["forms/responses/x.ts", "../../kernel/cursor.js"],
      ["sharing/x.ts", "../identity/principal.js"],
      ["kernel/ports/x.ts", "../errors.js"],
      // The job queue is the kernel's: both services queue and run jobs on it.
      ["forms/responses/x.ts", "../../kernel/jobs/job.js"],
      ["sharing/jobs/x.ts", "../../kernel/ports/jobs.js"],
      ["index.ts", "./forms/index.js"]
    ])("allows %s importing %s", (path, specifier) => {
      expect(check(path, specifier)).toBeUndefined()
    })
  })

  it("rejects one adapter importing another, by name or by relative path", () => {
    const file = `${root}packages/adapters-http/src/x.ts`
    expect(checkImport(root, "adapters-http", { file, specifier: "@folio/adapters-storage" })).toBeDefined()
    expect(
      checkImport(root, "adapters-http", { file, specifier: "../../adapters-mcp/src/y.js" })
    ).toBeDefined()
    expect(checkImport(root, "adapters-http", { file, specifier: "@folio/domain" })).toBeUndefined()
  })

  it("keeps the outbound integrations apart from storage: each imports the domain, not the other", () => {
    const integrations = `${root}packages/adapters-integrations/src/x.ts`
    const storage = `${root}packages/adapters-storage/src/x.ts`
    const fromIntegrations = (specifier: string) =>
      checkImport(root, "adapters-integrations", { file: integrations, specifier })
    expect(fromIntegrations("@folio/domain")).toBeUndefined()
    for (const specifier of [
      "@folio/adapters-storage",
      "@folio/adapters-http",
      "@folio/adapters-http/shared",
      "../../adapters-storage/src/runtime/index.js",
      "@folio/app"
    ])
      expect(fromIntegrations(specifier), specifier).toBeDefined()
    expect(
      checkImport(root, "adapters-storage", { file: storage, specifier: "@folio/adapters-integrations" })
    ).toBeDefined()
  })

  it("lets adapters-mcp import the HTTP layer's shared entry, and nothing else of adapters-http", () => {
    const file = `${root}packages/adapters-mcp/src/x.ts`
    const check = (specifier: string) => checkImport(root, "adapters-mcp", { file, specifier })
    expect(check("@folio/adapters-http/shared")).toBeUndefined()
    for (const specifier of [
      "@folio/adapters-http",
      "@folio/adapters-http/forms",
      "@folio/adapters-http/shared/request-guard.js",
      "../../adapters-http/src/shared/index.js",
      "@folio/adapters-storage"
    ])
      expect(check(specifier), specifier).toBeDefined()
    // The shared entry is MCP's alone: no other adapter reaches into adapters-http through it.
    const storage = `${root}packages/adapters-storage/src/x.ts`
    expect(
      checkImport(root, "adapters-storage", { file: storage, specifier: "@folio/adapters-http/shared" })
    ).toBeDefined()
  })

  it("lets the app import every package", () => {
    const file = `${root}packages/app/src/x.ts`
    for (const pkg of [
      "domain",
      "adapters-storage",
      "adapters-integrations",
      "adapters-http",
      "adapters-mcp"
    ])
      expect(checkImport(root, "app", { file, specifier: `@folio/${pkg}` }), pkg).toBeUndefined()
  })
})

describe("no import cycles", () => {
  // An error class depends on nothing that raises it, a view on no use case: shared types live in
  // leaf modules (forms/responses/respondent-estimate.ts, uploaded-files.ts).
  it.each(PACKAGES)("in %s (type-only imports included)", (pkg) => {
    const dir = `${root}packages/${pkg}/src`
    const cycles = cyclesOf(importGraphOf(dir)).map((cycle) => cycle.map((file) => relative(dir, file)))
    expect(cycles).toEqual([])
  })

  it("finds every file of a cycle, a file importing itself, and nothing else", () => {
    const graph = new Map([
      ["errors.ts", ["respondent.ts"]],
      ["respondent.ts", ["reads.ts", "leaf.ts"]],
      ["reads.ts", ["errors.ts"]],
      ["leaf.ts", []],
      ["self.ts", ["self.ts", "leaf.ts"]],
      ["user.ts", ["errors.ts", "self.ts"]]
    ])
    expect(cyclesOf(graph)).toEqual([["errors.ts", "reads.ts", "respondent.ts"], ["self.ts"]])
  })
})

describe("the domain's browser entry", () => {
  // The public form page's script bundles it: Effect there would cost the page its size budget.
  it("loads no package at run time, only pure domain files", () => {
    const { files, packages } = runtimeClosure(`${root}packages/domain/src/forms/browser.ts`)
    expect(packages).toEqual([])
    expect(files.length).toBeGreaterThan(3)
  })

  it("tells type-only imports from value imports", () => {
    expect(
      valueImportsOf(
        'import type { A } from "a"\nimport { type B } from "b"\nimport { C } from "c"\nexport type { D } from "d"\nexport { E } from "e"'
      )
    ).toEqual(["c", "e"])
  })
})

describe("no runtime machinery in the domain", () => {
  it("holds for every source file of the domain", () => {
    expect(runtimeUsesIn(root, "packages/domain/src")).toEqual([])
  })

  it("sees timers, background fibers, schedules, caches, port decorators and randomness, in code only", () => {
    const source = [
      "// setTimeout and Effect.forkScoped in a comment are fine",
      'import { Effect, Fiber, Schedule } from "effect"',
      'import * as Cache from "effect/Cache"',
      'const text = "crypto.getRandomValues in a string is fine"',
      "const a = setTimeout(() => {}, 10)",
      "const b = globalThis.setInterval(() => {}, 10)",
      "const c = Effect.forkScoped(Effect.void)",
      "const d = Effect.forkDaemon(Effect.repeat(Effect.void, Schedule.spaced(1)))",
      "const e = globalThis.crypto.getRandomValues(new Uint8Array(4))",
      "const f = crypto.randomUUID()",
      "const g = Math.random()",
      "const h = Effect.sleep(10)",
      "const ok = { crypto: 1, setTimeout: 2, Clock: Effect.clock, now: Date.now }",
      "const okToo = ok.crypto + ok.setTimeout",
      "const Cached = Layer.effect(Keys, Effect.gen(function* () { const inner = yield* Keys; return inner }))",
      "const Fresh = Layer.effect(Keys, Effect.gen(function* () { const other = yield* Store; return other }))"
    ].join("\n")
    expect(runtimeUsesOf("x.ts", source).map((u) => `${u.line}:${u.name}`)).toEqual([
      "2:Fiber",
      "2:Schedule",
      "3:effect/Cache",
      "3:Cache",
      "5:setTimeout",
      "6:globalThis.setInterval",
      "7:Effect.forkScoped",
      "8:Effect.forkDaemon",
      "8:Effect.repeat",
      "8:Schedule",
      "9:globalThis.crypto",
      "10:crypto",
      "11:Math.random",
      "12:Effect.sleep",
      "15:Layer decorating Keys"
    ])
  })

  it("sees reads of the wall clock, and not dates made from a given time", () => {
    const source = [
      "const a = Date.now()",
      "const b = new Date()",
      "const c = new Date",
      "const d = globalThis.Date.now()",
      "const e = new globalThis.Date()",
      "const ok = new Date(yield* Clock.currentTimeMillis)",
      'const okToo = new Date("2026-01-01T00:00:00Z").getTime() + Date.parse("2026-01-01")',
      "const clock = { now: Date.now }"
    ].join("\n")
    expect(runtimeUsesOf("x.ts", source).map((u) => `${u.line}:${u.name}`)).toEqual([
      "1:Date.now()",
      "2:new Date()",
      "3:new Date()",
      "4:Date.now()",
      "5:new Date()"
    ])
  })

  it("sees maps that live as long as the module, and not maps made per call, object or build", () => {
    const source = [
      "const versions = new Map<string, number>()",
      "const memo = <A>(decode: (s: unknown) => A) => {",
      "  const cache = new WeakMap<object, A>()",
      "  return (s: object) => cache.get(s) ?? decode(s)",
      "}",
      "const classic = memo((s) => s)",
      "const once = (() => new Map())()",
      "function index(xs: ReadonlyArray<string>) { return new Map(xs.map((x, i) => [x, i])) }",
      "export const perCall = (xs: ReadonlyArray<string>) => index(xs).size + new Map().size",
      "const TABLE: ReadonlyMap<string, number> = new Map([['a', 1]])",
      "class Counter { readonly seen = new Map<string, number>() }",
      "class Shared { static readonly seen = new Map<string, number>() }",
      "export const build = () => memo((s) => s)"
    ].join("\n")
    expect(runtimeUsesOf("x.ts", source).map((u) => `${u.line}:${u.name}`)).toEqual([
      "1:module-level new Map",
      "3:module-level new WeakMap",
      "7:module-level new Map",
      "12:module-level new Map"
    ])
  })

  // A decoding memo in the domain (the shape CachedStoredFormDocumentsLive has in adapters-storage):
  // a memo factory called as the module loads, and a module-level version cache.
  it("rejects the stored-document memo that was in forms/form.ts", () => {
    const source = [
      "const memo = <A>(limit: number, decode: (stored: unknown) => A) => {",
      "  const cache = new Map<string, A>()",
      "  return (namespace: string, stored: unknown): A => {",
      "    const key = namespace + JSON.stringify(stored)",
      "    const hit = cache.get(key)",
      "    if (hit !== undefined || cache.has(key)) return hit as A",
      "    const value = decode(stored)",
      "    if (cache.size >= limit) cache.delete(cache.keys().next().value as string)",
      "    cache.set(key, value)",
      "    return value",
      "  }",
      "}",
      "const classicMemo = memo(500, (stored) => Result.getOrNull(decodeFormDefinition(stored)))",
      "const versionCache = new Map<string, FormDefinition | null>()"
    ].join("\n")
    expect(runtimeUsesOf("packages/domain/src/forms/form.ts", source).map((u) => u.line)).toEqual([2, 14])
  })

  // The in-process runtime adapters belong in adapters-storage: the rules would catch each of them
  // in the domain (its @folio/domain import would become a relative one there).
  it.each(["buffered-rate-limit-store.ts", "cached-api-key-repository.ts", "usage-batcher.ts", "id-gen.ts"])(
    "rejects the runtime adapter %s if it were put back in the domain",
    (name) => {
      const source = readFileSync(`${root}packages/adapters-storage/src/runtime/${name}`, "utf8")
      const file = `${root}packages/domain/src/identity/${name}`
      const imports = importsOf(source)
        .filter((specifier) => specifier !== "@folio/domain")
        .flatMap((specifier) => checkImport(root, "domain", { file, specifier }) ?? [])
      expect([...imports, ...runtimeUsesOf(file, source)]).not.toEqual([])
    }
  )
})
