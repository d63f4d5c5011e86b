// A preload for a child process (`node --import` this file): records the package of every module
// the process loads, and on SIGUSR2 writes their names (sorted, as JSON) to LOADED_PACKAGES_FILE.
// Tests read it to check that a start leaves the libraries of unused features unloaded.
import { renameSync, writeFileSync } from "node:fs"
import { registerHooks } from "node:module"

const packages = new Set()
registerHooks({
  load(url, context, next) {
    const name = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1]
    if (name !== undefined) packages.add(name)
    return next(url, context)
  }
})
process.on("SIGUSR2", () => {
  const file = process.env.LOADED_PACKAGES_FILE
  if (file === undefined) return
  // Written aside and renamed, so a reader never sees half of it.
  writeFileSync(`${file}.partial`, JSON.stringify([...packages].sort()))
  renameSync(`${file}.partial`, file)
})
