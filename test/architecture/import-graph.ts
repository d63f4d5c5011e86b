// Reads every import of the workspace packages' sources (static, re-export and dynamic) with the
// TypeScript preprocessor, checks them against DESIGN.md's dependency rule, and finds import cycles.
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve, sep } from "node:path"
import ts from "typescript"

export const PACKAGES = [
  "domain",
  "adapters-storage",
  "adapters-integrations",
  "adapters-http",
  "adapters-mcp",
  "app"
] as const
export type PackageName = (typeof PACKAGES)[number]

export interface ImportEdge {
  readonly file: string
  readonly specifier: string
}

export interface Violation extends ImportEdge {
  readonly rule: string
}

/** What the pure domain may import besides its own files. */
const DOMAIN_ALLOWED = [
  /^effect(\/.*)?$/,
  /^@noble\/hashes(\/.*)?$/,
  /^canonicalize$/,
  /^ipaddr\.js$/,
  // Screens authors' answer patterns for catastrophic backtracking (pure JS, no node:*).
  /^safe-regex2$/
]

/**
 * The domain's bounded contexts and which others each may import (DESIGN.md): the kernel none,
 * identity only the kernel (never a service), and each service the kernel and identity, never the
 * other service. Every domain folder is one of these.
 */
export const DOMAIN_CONTEXTS: Readonly<Record<string, ReadonlyArray<string>>> = {
  kernel: [],
  identity: ["kernel"],
  forms: ["kernel", "identity"],
  sharing: ["kernel", "identity"]
}
const ADAPTERS: ReadonlyArray<PackageName> = [
  "adapters-storage",
  "adapters-integrations",
  "adapters-http",
  "adapters-mcp"
]
/** The one entry of another adapter an adapter may import: MCP is served over the HTTP layer's shared part. */
const SHARED_ENTRIES: Partial<Record<PackageName, string>> = { "adapters-mcp": "@folio/adapters-http/shared" }

export const importsOf = (source: string): ReadonlyArray<string> =>
  ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName)

/** The package a relative import lands in, or undefined when it stays inside `pkgDir`. */
const escapedTo = (root: string, file: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined
  const target = resolve(root, file, "..", specifier)
  const rel = relative(join(root, "packages"), target)
  const pkg = rel.split(sep)[0]
  return pkg
}

/** The domain context folder a path lies in, or undefined for the package's own root files. */
const contextOf = (root: string, path: string): string | undefined => {
  const parts = relative(join(root, "packages", "domain", "src"), resolve(root, path)).split(sep)
  return parts.length > 1 ? parts[0] : undefined
}

/** A relative import inside the domain that crosses from one context into one it may not import. */
const crossesContexts = (root: string, edge: ImportEdge): string | undefined => {
  const from = contextOf(root, edge.file)
  if (from === undefined) return undefined
  const allowed = DOMAIN_CONTEXTS[from]
  if (allowed === undefined) {
    return `domain code lives in a bounded context (${Object.keys(DOMAIN_CONTEXTS).join(", ")}), not in ${from}/`
  }
  if (!edge.specifier.startsWith(".")) return undefined
  const to = contextOf(root, resolve(root, edge.file, "..", edge.specifier))
  if (to === from || (to !== undefined && allowed.includes(to))) return undefined
  // The package's index re-exports every context, so reaching it is reaching all of them.
  const target = to ?? "the domain's index"
  return from === "kernel" ? `the kernel imports no context (${target})` : `${from} imports ${target}`
}

export const checkImport = (root: string, pkg: PackageName, edge: ImportEdge): Violation | undefined => {
  const { specifier } = edge
  const landed = escapedTo(root, edge.file, specifier)
  if (landed !== undefined && landed !== pkg) {
    return { ...edge, rule: `${pkg} reaches into another package by a relative path` }
  }
  if (pkg === "domain") {
    const crossing = crossesContexts(root, edge)
    if (crossing !== undefined) return { ...edge, rule: crossing }
  }
  if (specifier.startsWith(".")) return undefined
  if (pkg === "domain") {
    return DOMAIN_ALLOWED.some((re) => re.test(specifier))
      ? undefined
      : { ...edge, rule: "domain imports only effect and small pure libraries" }
  }
  if (ADAPTERS.includes(pkg)) {
    if (specifier === SHARED_ENTRIES[pkg]) return undefined
    const other = ADAPTERS.find(
      (a) => a !== pkg && (specifier === `@folio/${a}` || specifier.startsWith(`@folio/${a}/`))
    )
    if (other !== undefined) return { ...edge, rule: `${pkg} imports another adapter (${other})` }
    if (specifier === "@folio/app" || specifier.startsWith("@folio/app/")) {
      return { ...edge, rule: `${pkg} imports the app` }
    }
  }
  return undefined
}

export const sourceFiles = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return /\.(ts|mts|cts|tsx)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : []
  })

export const violationsIn = (root: string): ReadonlyArray<Violation> =>
  PACKAGES.flatMap((pkg) =>
    sourceFiles(join(root, "packages", pkg, "src")).flatMap((file) =>
      importsOf(readFileSync(file, "utf8")).flatMap((specifier) => {
        const v = checkImport(root, pkg, { file: relative(root, file), specifier })
        return v === undefined ? [] : [v]
      })
    )
  )

/** The imports of a file that load code at run time: `import type` and type-only names left out. */
export const valueImportsOf = (source: string): ReadonlyArray<string> => {
  const file = ts.createSourceFile("x.ts", source, ts.ScriptTarget.Latest, false)
  const out: Array<string> = []
  for (const node of file.statements) {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)))
      if (!typeOnly) out.push(node.moduleSpecifier.text)
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const typeOnly =
        node.isTypeOnly ||
        (node.exportClause !== undefined &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.every((e) => e.isTypeOnly))
      if (!typeOnly) out.push(node.moduleSpecifier.text)
    }
  }
  return out
}

/** Every file and package a module loads at run time, following relative imports. */
export const runtimeClosure = (
  entry: string
): { files: ReadonlyArray<string>; packages: ReadonlyArray<string> } => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (path: string) => {
    if (files.has(path)) return
    files.add(path)
    for (const specifier of valueImportsOf(readFileSync(path, "utf8"))) {
      if (specifier.startsWith(".")) visit(resolve(path, "..", specifier.replace(/\.js$/, ".ts")))
      else packages.add(specifier)
    }
  }
  visit(entry)
  return { files: [...files], packages: [...packages] }
}

/** A relative import's target file: `./x.js` is `x.ts`, `./dir/index.js` its index. */
const resolveRelative = (file: string, specifier: string): string =>
  resolve(file, "..", specifier.replace(/\.js$/, ".ts"))

/** Each source file under `dir` with the files under `dir` it imports (type-only imports included). */
export const importGraphOf = (dir: string): ReadonlyMap<string, ReadonlyArray<string>> => {
  const files = sourceFiles(dir)
  const known = new Set(files)
  return new Map(
    files.map((file) => [
      file,
      importsOf(readFileSync(file, "utf8"))
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => resolveRelative(file, specifier))
        .filter((target) => known.has(target))
    ])
  )
}

/**
 * The import cycles of a graph: each strongly connected component of more than one file (or a file
 * importing itself), its files sorted (Tarjan's algorithm).
 */
export const cyclesOf = (
  graph: ReadonlyMap<string, ReadonlyArray<string>>
): ReadonlyArray<ReadonlyArray<string>> => {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<ReadonlyArray<string>> = []
  const connect = (file: string): void => {
    index.set(file, index.size)
    low.set(file, index.get(file) ?? 0)
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next)
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0))
      }
    }
    if (low.get(file) !== index.get(file)) return
    const component: Array<string> = []
    for (;;) {
      const top = stack.pop()
      if (top === undefined) break
      onStack.delete(top)
      component.push(top)
      if (top === file) break
    }
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) cycles.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) connect(file)
  return cycles
}
