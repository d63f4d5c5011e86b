// The app's bundle (packages/app/bundle.mjs), which `npm start`, `npm run cli` and the image run: the
// packages it leaves to node_modules are imported by the file node resolves from the module that
// imports them, never by a bare name that node would resolve from bundle/ instead (a workspace
// package's own version of a package would then be swapped for the root's).
import { existsSync, readFileSync } from "node:fs"
import { createRequire, isBuiltin } from "node:module"
import { dirname, join, resolve } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { build, root } from "./process.js"

beforeAll(build, 240_000)

const BUNDLE = join(root, "packages/app/bundle")
const IMPORT =
  /(?:^|[;\s])(?:import|export)\s[^"'`;]*?from\s*"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|^import\s*"([^"]+)"/gm

/**
 * Every file the entries reach and its imports (an earlier build's chunks left beside them are not),
 * read once for the file's tests.
 */
let reached: Map<string, ReadonlyArray<string>> | undefined
const reachable = (): Map<string, ReadonlyArray<string>> => {
  if (reached !== undefined) return reached
  const seen = new Map<string, ReadonlyArray<string>>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    const text = readFileSync(file, "utf8")
    const specifiers = [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3] ?? "")
    seen.set(file, specifiers)
    for (const s of specifiers) if (s.startsWith("./") && !s.includes("node_modules")) visit(join(BUNDLE, s))
  }
  for (const entry of ["main.js", "cli.js", "observer-worker.js"]) visit(join(BUNDLE, entry))
  reached = seen
  return seen
}

describe("the app's bundle", () => {
  it("imports node's modules by name and every package by an existing file", () => {
    const files = reachable()
    expect(files.size).toBeGreaterThan(3)
    const packages: Array<string> = []
    for (const [file, specifiers] of files)
      for (const s of specifiers) {
        if (isBuiltin(s)) continue
        expect(s, `${file} imports ${s}`).toMatch(/^\.\.?\//)
        expect(existsSync(resolve(dirname(file), s)), `${file} imports ${s}`).toBe(true)
        if (s.includes("node_modules")) packages.push(s)
      }
    // The server's own packages among them: the embedded database and the OAuth server.
    expect(packages.some((s) => s.includes("node_modules/@electric-sql/pglite/"))).toBe(true)
    expect(packages.some((s) => s.includes("node_modules/oidc-provider/"))).toBe(true)
  })

  it("imports the version of a package the workspace package that uses it declares", () => {
    // The domain checks webhook addresses with ipaddr.js 2; another dependency holds version 1 at
    // the root of node_modules.
    const declared = (
      JSON.parse(readFileSync(join(root, "packages/domain/package.json"), "utf8")) as {
        dependencies: Record<string, string>
      }
    ).dependencies["ipaddr.js"]
    const major = /\d+/.exec(declared ?? "")?.[0]
    const imported = [...reachable()].flatMap(([file, specifiers]) =>
      specifiers.filter((s) => s.includes("/ipaddr.js/")).map((s) => resolve(dirname(file), s))
    )
    expect(imported.length).toBeGreaterThan(0)
    for (const path of imported) {
      const pkg = JSON.parse(
        readFileSync(join(path.slice(0, path.indexOf("/ipaddr.js/")), "ipaddr.js/package.json"), "utf8")
      ) as { version: string }
      expect(pkg.version.split(".")[0]).toBe(major)
    }
  })

  it("finds the packages its modules require at first use where their own packages find them", () => {
    // createRequire(import.meta.url) resolves from the bundle's folder once bundled.
    const fromBundle = createRequire(join(BUNDLE, "main.js"))
    for (const [pkg, name] of [
      ["adapters-http", "markdown-it"],
      ["adapters-http", "sanitize-html"],
      ["adapters-integrations", "heic-decode"],
      ["adapters-storage", "ajv/dist/2020.js"]
    ] as const)
      expect(fromBundle.resolve(name), name).toBe(
        createRequire(join(root, "packages", pkg, "src/index.ts")).resolve(name)
      )
  })
})
