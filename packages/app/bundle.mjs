// Bundles the built server, CLI and observer thread (dist/main.js, dist/cli.js,
// dist/observer-worker.js, which tsc -b writes) into bundle/ with esbuild, for `npm start`,
// `npm run cli` and the image to run: Effect's modules and Folio's own are a few files instead of
// about a thousand, which a process resolves, reads and links one by one at its start (a server
// start ~0.75 s sooner, a CLI call ~0.5 s; decision 0029, "The server process"). Only Effect and the
// workspace packages are bundled; every other package stays an import of node_modules, loaded as
// before (native parts, WebAssembly, files read beside their modules). Code splitting keeps the
// lazy imports lazy (the authorization server, the MCP tools, the S3 store and the libraries they
// import are chunks of their own, loaded at first use). Not minified: a stack trace names the
// functions and esbuild's comments name each module's file.
//
// Run by `npm run build` after tsc, and by the process tests' build step, so it does nothing when the
// bundle is newer than every file it was made from and than this script; two of it at once (two test files) write the
// same files, each by a rename, so a process never starts from a half-written one.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "../..")
const out = join(here, "bundle")
/** The files the last bundle was made from (paths relative to the repository), written last. */
const STAMP = join(out, ".inputs.json")
/** npm rewrites it at every install; the packages' own files keep their tarballs' fixed times. */
const INSTALLED = join(root, "node_modules/.package-lock.json")

/** How old another build's chunk must be before a new build deletes it. */
const STALE_MS = 60 * 60 * 1000

/** Marks the plugin's own resolution of an external import (esbuild calls the plugin again for it). */
const RESOLVING = Symbol("resolving")

const BUNDLED = /^(effect|@effect\/|@folio\/)/

const mtimeOf = (path) => {
  try {
    return statSync(path).mtimeMs
  } catch {
    return Number.POSITIVE_INFINITY
  }
}

const upToDate = () => {
  const made = mtimeOf(STAMP)
  if (made === Number.POSITIVE_INFINITY) return false
  const inputs = JSON.parse(readFileSync(STAMP, "utf8"))
  return [INSTALLED, fileURLToPath(import.meta.url), ...inputs.map((input) => join(root, input))].every(
    (input) => mtimeOf(input) < made
  )
}

/** Writes a file whole, by a rename, so a concurrent reader sees the old one or the new one. */
const writeWhole = (path, contents) => {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  renameSync(temporary, path)
}

export const bundleApp = async () => {
  if (upToDate()) return false
  const result = await build({
    absWorkingDir: root,
    entryPoints: {
      main: join(here, "dist/main.js"),
      cli: join(here, "dist/cli.js"),
      "observer-worker": join(here, "dist/observer-worker.js")
    },
    outdir: out,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node24",
    write: false,
    metafile: true,
    logLevel: "warning",
    // Node's own choice among a package's exports (esbuild adds "module" otherwise).
    conditions: [],
    plugins: [
      {
        name: "node-modules-stay-external",
        setup(b) {
          // Resolved from the importing module, as node resolves it, then imported by that file's
          // path from the bundle: a package a workspace package holds its own version of
          // (packages/domain/node_modules/ipaddr.js 2 beside the root's 1, which another package
          // needs) stays that version, where a bare name would find the root's from bundle/.
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (BUNDLED.test(args.path) || args.path.startsWith("node:") || args.pluginData === RESOLVING)
              return undefined
            const found = await b.resolve(args.path, {
              kind: args.kind,
              importer: args.importer,
              resolveDir: args.resolveDir,
              pluginData: RESOLVING
            })
            if (found.errors.length > 0) return { errors: found.errors }
            // A built-in module named without `node:`.
            if (found.external) return { path: args.path, external: true }
            const path = relative(out, found.path).split(sep).join("/")
            return { path: path.startsWith(".") ? path : `./${path}`, external: true }
          })
        }
      }
    ]
  })
  // Chunks are named by their contents, so an older entry a running process loaded still finds its
  // own; the entries go last, once every chunk they import is there.
  const entries = new Set(["main.js", "cli.js", "observer-worker.js"].map((name) => join(out, name)))
  for (const file of result.outputFiles) if (!entries.has(file.path)) writeWhole(file.path, file.contents)
  for (const file of result.outputFiles) if (entries.has(file.path)) writeWhole(file.path, file.contents)
  writeWhole(STAMP, JSON.stringify(Object.keys(result.metafile.inputs)))
  // Older builds' chunks, once no process is likely to be starting from their entries any more.
  const current = new Set(result.outputFiles.map((file) => file.path))
  for (const name of readdirSync(out)) {
    const path = join(out, name)
    if (name.endsWith(".js") && !current.has(path) && Date.now() - mtimeOf(path) > STALE_MS)
      rmSync(path, { force: true })
  }
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleApp()
