// The filesystem blob store seen from outside the server: every object file under DATA_DIR/blobs
// (type files left out) and a way to age them, as the orphan tests need.
import { type Dirent, readdirSync, statSync, utimesSync } from "node:fs"
import { join, relative, sep } from "node:path"

/** Every object key under `root` (the fs store's directory), with the file's mtime. */
export const blobFiles = (root: string): Map<string, Date> => {
  const found = new Map<string, Date>()
  const walk = (dir: string) => {
    let entries: Array<Dirent>
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (!entry.name.endsWith(".meta.json")) {
        // A running server's write lands as a temp file renamed to its key: gone since the listing.
        const stat = statSync(path, { throwIfNoEntry: false })
        if (stat !== undefined) found.set(relative(root, path).split(sep).join("/"), stat.mtime)
      }
    }
  }
  walk(root)
  return found
}

/** Sets the mtime of every object (and type file) under `root` to `hoursAgo` hours back. */
export const ageBlobFiles = (root: string, hoursAgo: number) => {
  const when = new Date(Date.now() - hoursAgo * 3_600_000)
  for (const key of blobFiles(root).keys()) {
    const path = join(root, ...key.split("/"))
    utimesSync(path, when, when)
  }
}
