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
// bundle was begun after every file it was made from and this script last changed. Two of it at
// once (two test files) take turns (a lock file), and every file is written by a rename, chunks
// before entries, so a process never starts from a half-written build. A build's files are kept
// until KEPT_BUILDS newer builds have been made, for the lazy chunks of a process still running
// from it.
import {
  closeSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync
} from "node:fs"
import { dirname, join, relative, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { build } from "esbuild"

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, "../..")
const out = join(here, "bundle")
/**
 * The files the last bundle was made from (paths relative to the repository) and the files of the
 * last builds, written last; its time is when that build began.
 */
const STAMP = join(out, ".inputs.json")
/** Held while a build runs (created exclusively); one older than LOCK_STALE_MS is a dead build's. */
const LOCK = join(out, ".lock")
const LOCK_STALE_MS = 2 * 60 * 1000
/** npm rewrites it at every install; the packages' own files keep their tarballs' fixed times. */
const INSTALLED = join(root, "node_modules/.package-lock.json")

/** How many builds' files are kept (a server started from an older one still loads its chunks). */
const KEPT_BUILDS = 10

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

const readStamp = () => {
  try {
    const stamp = JSON.parse(readFileSync(STAMP, "utf8"))
    if (Array.isArray(stamp.inputs) && Array.isArray(stamp.builds)) return stamp
  } catch {
    // none yet, or one this script did not write
  }
  return { inputs: [], builds: [] }
}

const upToDate = () => {
  const made = mtimeOf(STAMP)
  if (made === Number.POSITIVE_INFINITY) return false
  const { inputs } = readStamp()
  return [INSTALLED, fileURLToPath(import.meta.url), ...inputs.map((input) => join(root, input))].every(
    (input) => mtimeOf(input) < made
  )
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))

/** Runs `work` holding the lock, waiting for another build's turn to end. */
const locked = async (work) => {
  mkdirSync(out, { recursive: true })
  for (;;) {
    try {
      closeSync(openSync(LOCK, "wx"))
      break
    } catch (error) {
      if (error.code !== "EEXIST") throw error
      if (Date.now() - mtimeOf(LOCK) > LOCK_STALE_MS) rmSync(LOCK, { force: true })
      else await sleep(100)
    }
  }
  try {
    return await work()
  } finally {
    rmSync(LOCK, { force: true })
  }
}

/**
 * Writes a file whole, by a rename, so a concurrent reader sees the old one or the new one (into
 * bundle/, which the lock made; esbuild's outputs are flat).
 */
const writeWhole = (path, contents) => {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, contents)
  renameSync(temporary, path)
}

export const bundleApp = async () => {
  if (upToDate()) return false
  return locked(async () => {
    // Another build may have finished while this one waited.
    if (upToDate()) return false
    return bundleNow()
  })
}

const bundleNow = async () => {
  // The stamp is dated when the build begins, so an input changed while esbuild runs is newer.
  const begun = new Date()
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
    // Node's own choice among a package's exports: its default conditions beside `node` and
    // `import` (esbuild adds "module" otherwise).
    conditions: ["module-sync", "node-addons"],
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
  const files = result.outputFiles.map((file) => relative(out, file.path))
  const builds = [files, ...readStamp().builds].slice(0, KEPT_BUILDS)
  writeWhole(STAMP, JSON.stringify({ inputs: Object.keys(result.metafile.inputs), builds }))
  utimesSync(STAMP, begun, begun)
  // The files of builds older than the kept ones (and any a build that died left half-written).
  const kept = new Set(builds.flat())
  for (const name of readdirSync(out))
    if ((name.endsWith(".js") || name.endsWith(".tmp")) && !kept.has(name))
      rmSync(join(out, name), { force: true })
  return true
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleApp()
