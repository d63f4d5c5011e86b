// The order files start in, when vitest has no timings of its own (a clean clone: CI, a newcomer's
// first `npm test`). Vitest's default then starts the largest files first, by bytes, and bytes
// say little about time here: the slowest files are short ones that start processes (the CLI's
// 6 KB file took 51 s), so they started late and the run ended on them, one worker busy and the
// other idle. Started longest first, by the times one run recorded (file-durations.json), the two
// workers finish closer together. With timings of vitest's own (its cache, after a local run), its
// order stands: failed files first, then longest first by those timings.
import { readFileSync } from "node:fs"
import { relative } from "node:path"
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** Seconds each file took in one full run, by path from the repository's root. */
export const DURATIONS_FILE = new URL("./file-durations.json", import.meta.url)

const recorded = (): ReadonlyMap<string, number> => {
  try {
    return new Map(Object.entries(JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>))
  } catch {
    return new Map()
  }
}

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec) !== undefined))
      return super.sort(files)
    const seconds = recorded()
    const root = this.ctx.config.root
    // A file with no recorded time (a new one) goes first, as vitest runs unknown files first.
    const time = (spec: TestSpecification) =>
      seconds.get(relative(root, spec.moduleId).split("\\").join("/")) ?? Number.POSITIVE_INFINITY
    return [...files].sort((a, b) => {
      const d = time(b) - time(a)
      return Number.isNaN(d) ? 0 : d
    })
  }
}
