// The embedded data directory: created on demand, guarded by a pid lock so two processes never
// open the same PGlite files, and home of generated secrets that must survive restarts.
import { randomBytes } from "node:crypto"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { Data, Effect } from "effect"

export class DataDirError extends Data.TaggedError("DataDirError")<{ readonly message: string }> {}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Holds DATA_DIR/folio.lock for the lifetime of the scope. */
export const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.try({
      try: () => {
        const dir = resolve(dataDir)
        mkdirSync(dir, { recursive: true })
        const lock = join(dir, "folio.lock")
        try {
          writeFileSync(lock, String(process.pid), { flag: "wx" })
        } catch {
          const holder = Number.parseInt(readFileSync(lock, "utf8"), 10)
          if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
            throw new Error(
              `DATA_DIR ${dir} is in use by another Folio process (pid ${holder}); stop it first, or set DATABASE_URL`
            )
          }
          writeFileSync(lock, String(process.pid))
        }
        return lock
      },
      catch: (error) => new DataDirError({ message: error instanceof Error ? error.message : String(error) })
    }),
    (lock) => Effect.sync(() => rmSync(lock, { force: true }))
  )

/** A secret generated once and kept in DATA_DIR/secrets/<name> (mode 0600). */
export const persistentSecret = (dataDir: string, name: string) =>
  Effect.try({
    try: () => {
      const dir = join(resolve(dataDir), "secrets")
      mkdirSync(dir, { recursive: true, mode: 0o700 })
      const file = join(dir, name)
      try {
        const existing = readFileSync(file, "utf8").trim()
        if (existing.length >= 32) return existing
      } catch {
        // not created yet
      }
      const secret = randomBytes(32).toString("base64url")
      writeFileSync(file, `${secret}\n`, { mode: 0o600 })
      return secret
    },
    catch: (error) =>
      new DataDirError({
        message: `cannot keep secrets under DATA_DIR: ${error instanceof Error ? error.message : error}`
      })
  })
