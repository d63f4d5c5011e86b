// `npm run cli -- backup --out FILE` and `restore --in FILE`: the embedded default (the PGlite database,
// the filesystem blobs and the generated secrets under DATA_DIR) as one checksummed .tar.gz.
import { createHash, type Hash } from "node:crypto"
import { createReadStream, createWriteStream, existsSync, readFileSync } from "node:fs"
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises"
import { basename, dirname, join, relative, resolve, sep } from "node:path"
import { Readable, Transform } from "node:stream"
import { pipeline } from "node:stream/promises"
import { parseArgs } from "node:util"
import { createGunzip, createGzip } from "node:zlib"
import { PGlite } from "@electric-sql/pglite"
import { pgliteOptions } from "@folio/adapters-storage"
import { Data, Effect, Option, References } from "effect"
import { extract, type Header, pack } from "tar-stream"
import { AppConfig } from "./config.js"
import { lockDataDir } from "./data-dir.js"
import { reportFailure } from "./failure.js"
import { describeStore } from "./storage.js"

/** A backup or restore that cannot be done, in one line for the operator. */
export class BackupError extends Data.TaggedError("BackupError")<{
  readonly message: string
  readonly cause?: unknown
}> {}

class ArchiveUsage extends Data.TaggedError("ArchiveUsage")<{ readonly message: string }> {}

/** Bumped when the layout changes; restore refuses a format it does not know. */
const FORMAT = "folio-backup"
const FORMAT_VERSION = 1
const MANIFEST = "manifest.json"
const DATABASE = "database/pgdata.tar"

interface ManifestEntry {
  readonly path: string
  readonly bytes: number
  readonly sha256: string
}

interface Manifest {
  readonly format: typeof FORMAT
  readonly formatVersion: number
  readonly folioVersion: string
  readonly createdAt: string
  readonly database: {
    readonly engine: "pglite"
    readonly postgresVersion: string
    /** Rows per table at backup time; restore counts them again in the restored database. */
    readonly tables: Readonly<Record<string, number>>
    readonly rows: number
  }
  readonly blobs: { readonly count: number; readonly bytes: number }
  readonly secrets: number
  /** Every other entry of the archive, with its size and SHA-256: nothing is written before all match. */
  readonly entries: ReadonlyArray<ManifestEntry>
}

const folioVersion = (): string => {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version?: unknown
    }
    return typeof pkg.version === "string" ? pkg.version : "unknown"
  } catch {
    return "unknown"
  }
}

/** Throws from the promise-based steps; a declared function so that TypeScript narrows after a call. */
function fail(message: string, cause?: unknown): never {
  throw new BackupError({ message, cause })
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

/** What a summary line says of an archive's content. */
const contents = (m: Manifest) =>
  `the embedded database (${plural(m.database.rows, "row")} in ${plural(Object.keys(m.database.tables).length, "table")}), ${plural(m.blobs.count, "blob")} (${m.blobs.bytes} bytes) and ${plural(m.secrets, "secret")}`

/** A pass-through that feeds a hash and counts bytes on the way. */
const hashing = (hash: Hash, counted: { bytes: number }) =>
  new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      counted.bytes += chunk.length
      done(null, chunk)
    }
  })

const hashFile = async (path: string): Promise<ManifestEntry & { readonly file: string }> => {
  const hash = createHash("sha256")
  const counted = { bytes: 0 }
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer)
    counted.bytes += (chunk as Buffer).length
  }
  return { path: "", file: path, bytes: counted.bytes, sha256: hash.digest("hex") }
}

/** Regular files under `dir`, as archive paths under `prefix` ("blobs/ab/cd"); none when it is absent. */
const filesUnder = async (
  dir: string,
  prefix: string,
  skip: (name: string) => boolean
): Promise<Array<{ path: string; file: string }>> => {
  if (!existsSync(dir)) return []
  const found: Array<{ path: string; file: string }> = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || skip(entry.name)) continue
    const file = join(entry.parentPath, entry.name)
    found.push({ path: `${prefix}/${relative(dir, file).split(sep).join("/")}`, file })
  }
  return found.sort((a, b) => a.path.localeCompare(b.path))
}

/** The fs blob store's unfinished writes (`<key>.<pid>.<time>.<random>.tmp[.meta.json]`): no row names them. */
const isUnfinishedWrite = (name: string) => name.endsWith(".tmp") || name.endsWith(".tmp.meta.json")
/** A sidecar holds an object's content type; it travels with the object but is not counted as one. */
const isSidecar = (path: string) => path.endsWith(".meta.json")

const countRows = async (db: PGlite) => {
  const tables = await db.query<{ schema: string; name: string }>(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema')
      order by 1, 2`
  )
  const counts: Record<string, number> = {}
  for (const t of tables.rows) {
    const quoted = `"${t.schema.replaceAll('"', '""')}"."${t.name.replaceAll('"', '""')}"`
    const result = await db.query<{ n: number }>(`select count(*)::int as n from ${quoted}`)
    counts[t.schema === "public" ? t.name : `${t.schema}.${t.name}`] = result.rows[0]?.n ?? 0
  }
  const version = await db.query<{ server_version: string }>("show server_version")
  return {
    tables: counts,
    rows: Object.values(counts).reduce((a, b) => a + b, 0),
    postgresVersion: version.rows[0]?.server_version ?? "unknown"
  }
}

/** Adds one entry from memory or a file, checking that a file still has the bytes the manifest says. */
const addEntry = async (
  archive: ReturnType<typeof pack>,
  header: Partial<Header> & { readonly name: string },
  source: Buffer | { readonly file: string; readonly sha256: string }
) => {
  if (Buffer.isBuffer(source)) {
    await new Promise<void>((done, failed) =>
      archive.entry({ ...header, size: source.length }, source, (error) => (error ? failed(error) : done()))
    )
    return
  }
  const hash = createHash("sha256")
  const callbacks: { done?: () => void; failed?: (error: Error) => void } = {}
  const finished = new Promise<void>((done, failed) => Object.assign(callbacks, { done, failed }))
  const sink = archive.entry(header, (error) => (error ? callbacks.failed?.(error) : callbacks.done?.()))
  // tar-stream's entries are streamx streams: written by hand, waiting for drain as a pipe would.
  for await (const chunk of createReadStream(source.file)) {
    hash.update(chunk as Buffer)
    if (!sink.write(chunk as Buffer)) await new Promise<void>((done) => sink.once("drain", () => done()))
  }
  sink.end(undefined)
  await finished
  if (hash.digest("hex") !== source.sha256)
    fail(`${source.file} changed while it was being backed up; is a server running on DATA_DIR?`)
}

/**
 * Offline: the CLI holds DATA_DIR's lock for the whole backup, so no server writes a row or a blob
 * while the database is dumped and the blobs are read: every blob a row names is in the archive.
 */
const backup = (config: AppConfig, out: string) =>
  Effect.scoped(
    Effect.gen(function* () {
      const dataDir = resolve(config.dataDir)
      const pgdata = join(dataDir, "pglite")
      if (!existsSync(join(pgdata, "PG_VERSION")))
        return yield* new BackupError({ message: `no embedded database at ${pgdata}: nothing to back up` })
      yield* lockDataDir(dataDir).pipe(
        Effect.mapError(
          (e) =>
            new BackupError({
              message: `cannot back up: ${e.message.replace(/; stop it first.*$/, "")}; stop the server first (its embedded database belongs to that one process)`
            })
        )
      )
      const target = resolve(out)
      const partial = `${target}.${process.pid}.partial`
      const manifest = yield* Effect.tryPromise({
        try: async () => {
          // The dump is PGlite's own copy of its data directory, taken through the database itself.
          const db = await PGlite.create(pgdata, pgliteOptions())
          let counted: Awaited<ReturnType<typeof countRows>>
          let dump: Buffer
          try {
            counted = await countRows(db)
            dump = Buffer.from(await (await db.dumpDataDir("none")).arrayBuffer())
          } finally {
            await db.close()
          }
          const blobFiles =
            config.blobStore === "fs"
              ? await filesUnder(join(dataDir, "blobs"), "blobs", isUnfinishedWrite)
              : []
          const secretFiles = await filesUnder(join(dataDir, "secrets"), "secrets", () => false)
          const files = await Promise.all(
            [...blobFiles, ...secretFiles].map(async (f) => ({ ...(await hashFile(f.file)), path: f.path }))
          )
          const objects = files.filter((f) => f.path.startsWith("blobs/") && !isSidecar(f.path))
          const manifest: Manifest = {
            format: FORMAT,
            formatVersion: FORMAT_VERSION,
            folioVersion: folioVersion(),
            createdAt: new Date().toISOString(),
            database: { engine: "pglite", ...counted },
            blobs: { count: objects.length, bytes: objects.reduce((a, f) => a + f.bytes, 0) },
            secrets: secretFiles.length,
            entries: [
              {
                path: DATABASE,
                bytes: dump.length,
                sha256: createHash("sha256").update(dump).digest("hex")
              },
              ...files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 }))
            ]
          }
          // Written beside the target and renamed at the end: an interrupted backup leaves no file
          // that looks complete. Mode 0600: the archive holds every answer and the signing secret.
          await mkdir(dirname(target), { recursive: true })
          const archive = pack()
          const written = pipeline(
            Readable.from(archive),
            createGzip(),
            createWriteStream(partial, { mode: 0o600 })
          )
          try {
            const mtime = new Date(manifest.createdAt)
            await addEntry(
              archive,
              { name: MANIFEST, mtime, mode: 0o600 },
              Buffer.from(JSON.stringify(manifest, null, 2))
            )
            await addEntry(archive, { name: DATABASE, mtime, mode: 0o600 }, dump)
            for (const f of files)
              await addEntry(archive, { name: f.path, size: f.bytes, mtime, mode: 0o600 }, f)
            archive.finalize()
            await written
          } catch (error) {
            archive.destroy()
            await written.catch(() => undefined)
            throw error
          }
          await rename(partial, target)
          return manifest
        },
        catch: (cause) =>
          cause instanceof BackupError ? cause : new BackupError({ message: "backup failed", cause })
      }).pipe(Effect.onError(() => Effect.promise(() => rm(partial, { force: true }))))
      const size = (yield* Effect.promise(() => stat(target))).size
      yield* Effect.sync(() =>
        process.stdout.write(`backed up ${contents(manifest)} to ${target} (${size} bytes)\n`)
      )
    })
  )

/** An archive path that stays inside its place: no absolute path, no "..", no empty segment. */
const isSafePath = (path: string) => {
  if (path === DATABASE) return true
  const segments = path.split("/")
  return (
    (segments[0] === "blobs" || segments[0] === "secrets") &&
    segments.length >= 2 &&
    segments.every((s) => s !== "" && s !== "." && s !== ".." && !s.includes("\\") && !s.includes("\0"))
  )
}

const parseManifest = (text: string): Manifest => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return fail("the archive's manifest is not JSON: not a Folio backup, or damaged")
  }
  const m = value as Partial<Manifest> | null
  if (m === null || typeof m !== "object" || m.format !== FORMAT)
    return fail("not a Folio backup (no manifest)")
  if (m.formatVersion !== FORMAT_VERSION)
    return fail(
      `the backup is in format ${String(m.formatVersion)}, this Folio reads format ${FORMAT_VERSION}: restore it with the Folio version that made it (${String(m.folioVersion)})`
    )
  if (!Array.isArray(m.entries) || m.database === undefined || m.blobs === undefined)
    return fail("the archive's manifest is incomplete: damaged or altered")
  for (const e of m.entries)
    if (
      typeof e?.path !== "string" ||
      !isSafePath(e.path) ||
      typeof e.sha256 !== "string" ||
      typeof e.bytes !== "number"
    )
      return fail(`the archive's manifest names an entry it may not (${String(e?.path)}): damaged or altered`)
  return m as Manifest
}

/**
 * Reads the archive once, handing each entry after the manifest to `onEntry` with its expected
 * checksum; fails on any entry that is unexpected, repeated, missing or not what the manifest says.
 */
const readArchive = async (
  file: string,
  onEntry: (entry: ManifestEntry, body: AsyncIterable<unknown>) => Promise<{ bytes: number; sha256: string }>
): Promise<Manifest> => {
  const entries = extract()
  const input = createReadStream(file)
  const gunzip = createGunzip()
  // A missing file or a broken gzip stream ends the iteration below with that error.
  input.on("error", (error) => entries.destroy(error))
  gunzip.on("error", (error) => entries.destroy(error))
  input.pipe(gunzip).pipe(entries)
  let manifest: Manifest | undefined
  let expected = new Map<string, ManifestEntry>()
  const seen = new Set<string>()
  try {
    for await (const entry of entries) {
      const name = entry.header.name
      if (manifest === undefined) {
        if (name !== MANIFEST) fail("not a Folio backup (the manifest is not its first entry)")
        const chunks: Array<Buffer> = []
        for await (const chunk of entry) chunks.push(chunk as Buffer)
        manifest = parseManifest(Buffer.concat(chunks).toString("utf8"))
        expected = new Map(manifest.entries.map((e) => [e.path, e]))
        continue
      }
      const wanted = expected.get(name)
      if (wanted === undefined || seen.has(name) || entry.header.type !== "file")
        fail(`the archive holds ${name}, which its manifest does not list: damaged or altered`)
      seen.add(name)
      const got = await onEntry(wanted, entry)
      if (got.bytes !== wanted.bytes || got.sha256 !== wanted.sha256)
        fail(`${name} does not match its checksum in the manifest: the archive is damaged or altered`)
    }
  } catch (error) {
    if (error instanceof BackupError) throw error
    return fail(`cannot read ${file}: not a .tar.gz Folio backup, or damaged`, error)
  } finally {
    input.destroy()
    entries.destroy()
  }
  if (manifest === undefined) return fail(`${file} is empty: not a Folio backup`)
  const missing = manifest.entries.find((e) => !seen.has(e.path))
  if (missing !== undefined)
    fail(`the archive lacks ${missing.path}, which its manifest lists: it is truncated`)
  return manifest
}

const digest = async (body: AsyncIterable<unknown>, sink?: (chunk: Buffer) => void) => {
  const hash = createHash("sha256")
  let bytes = 0
  for await (const item of body) {
    const chunk = item as Buffer
    hash.update(chunk)
    bytes += chunk.length
    sink?.(chunk)
  }
  return { bytes, sha256: hash.digest("hex") }
}

/**
 * Into an empty or new DATA_DIR only: every checksum is checked before anything is written, then the
 * data goes to a sibling temp directory, the database is loaded and its rows counted against the
 * manifest, and only then is the directory renamed into place (never a half-restored DATA_DIR).
 */
const restore = (config: AppConfig, input: string) =>
  Effect.gen(function* () {
    const source = resolve(input)
    const target = resolve(config.dataDir)
    const staging = join(dirname(target), `.${basename(target)}.restore-${process.pid}`)
    const manifest = yield* Effect.tryPromise({
      try: async () => {
        if (!existsSync(source)) fail(`${source} does not exist`)
        if (existsSync(target) && (await readdir(target)).length > 0)
          fail(
            `DATA_DIR ${target} is not empty: restore only into an empty or new directory (move the current one aside first, e.g. mv ${target} ${target}.old)`
          )
        // First pass: every entry against the manifest, writing nothing.
        await readArchive(source, (_entry, body) => digest(body))
        // Second pass: write into the staging directory, checking again (the file may have changed).
        await rm(staging, { recursive: true, force: true })
        await mkdir(join(staging, "secrets"), { recursive: true, mode: 0o700 })
        let dump: Buffer | undefined
        const manifest = await readArchive(source, async (entry, body) => {
          if (entry.path === DATABASE) {
            const chunks: Array<Buffer> = []
            const got = await digest(body, (c) => chunks.push(c))
            dump = Buffer.concat(chunks)
            return got
          }
          const path = join(staging, ...entry.path.split("/"))
          await mkdir(dirname(path), { recursive: true })
          const hash = createHash("sha256")
          const counted = { bytes: 0 }
          await pipeline(
            Readable.from(body),
            hashing(hash, counted),
            createWriteStream(path, { mode: entry.path.startsWith("secrets/") ? 0o600 : 0o644 })
          )
          return { bytes: counted.bytes, sha256: hash.digest("hex") }
        })
        if (dump === undefined) return fail("the archive has no database: damaged or altered")
        // PGlite unpacks its own dump; the restored rows are counted against the manifest's.
        const db = await PGlite.create({
          ...pgliteOptions(),
          dataDir: join(staging, "pglite"),
          loadDataDir: new Blob([new Uint8Array(dump)])
        })
        try {
          const counted = await countRows(db)
          const differs = Object.entries(manifest.database.tables).find(([t, n]) => counted.tables[t] !== n)
          if (differs !== undefined)
            fail(
              `the restored database has ${counted.tables[differs[0]] ?? 0} rows in ${differs[0]}, the backup had ${differs[1]}`
            )
        } finally {
          await db.close()
        }
        await mkdir(dirname(target), { recursive: true })
        // rename() replaces an empty directory and refuses a non-empty one (if something wrote there meanwhile).
        await rename(staging, target)
        return manifest
      },
      catch: (cause) =>
        cause instanceof BackupError ? cause : new BackupError({ message: "restore failed", cause })
    }).pipe(Effect.onError(() => Effect.promise(() => rm(staging, { recursive: true, force: true }))))
    yield* Effect.sync(() =>
      process.stdout.write(`restored ${contents(manifest)} from ${source} into ${target}\n`)
    )
  })

/** The two commands that open DATA_DIR themselves rather than through the storage layer. */
export const isArchiveCommand = (noun: string | undefined): boolean => noun === "backup" || noun === "restore"

const FLAG = { backup: "out", restore: "in" } as const

/**
 * `backup --out FILE` / `restore --in FILE`, as a whole CLI program: the store is named on stderr
 * as every command does, the summary goes to stdout, a failure is one line and exit code 1, a usage
 * mistake the usage text and exit code 2.
 */
export const archiveProgram = (usage: string) =>
  Effect.gen(function* () {
    const args = yield* Effect.try({
      try: () =>
        parseArgs({
          args: process.argv.slice(2),
          allowPositionals: true,
          strict: true,
          options: { out: { type: "string" }, in: { type: "string" } }
        }),
      catch: (error) => new ArchiveUsage({ message: error instanceof Error ? error.message : String(error) })
    })
    const noun = args.positionals[0] === "restore" ? "restore" : "backup"
    if (args.positionals.length !== 1)
      return yield* new ArchiveUsage({ message: `${noun} takes no argument but --${FLAG[noun]} FILE` })
    const file = args.values[FLAG[noun]]
    if (file === undefined || file.length === 0)
      return yield* new ArchiveUsage({ message: `missing --${FLAG[noun]}` })
    const config = yield* AppConfig
    yield* Effect.sync(() => process.stderr.write(`folio: using ${describeStore(config)}\n`))
    if (Option.isSome(config.databaseUrl))
      return yield* new BackupError({
        message: `${noun} covers the embedded database only; with DATABASE_URL use PostgreSQL's own tools (pg_dump / pg_restore, or pg_basebackup with WAL archiving) and the bucket's versioning: see README, Backups and restore`
      })
    if (noun === "backup" && config.blobStore !== "fs")
      yield* Effect.sync(() =>
        process.stderr.write(
          `folio: BLOB_STORE=${config.blobStore}: the archive holds the database and secrets, not the blobs (back up the bucket itself)\n`
        )
      )
    yield* noun === "backup" ? backup(config, file) : restore(config, file)
  }).pipe(
    Effect.catchTag("ArchiveUsage", (e) =>
      Effect.sync(() => {
        process.stderr.write(`${e.message}\n\n${usage}`)
        process.exitCode = 2
      })
    ),
    Effect.catchCause(reportFailure),
    Effect.provideService(References.MinimumLogLevel, "Warn")
  )
