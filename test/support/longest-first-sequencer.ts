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

/** The recorded seconds, by file; none if the file is missing or unreadable. */
export const recordedDurations = (): Record<string, number> => {
  try {
    return JSON.parse(readFileSync(DURATIONS_FILE, "utf8")) as Record<string, number>
  } catch {
    return {}
  }
}

/** A test file's key in the durations file: its path from `root`, with forward slashes. */
export const durationKey = (root: string, moduleId: string): string =>
  relative(root, moduleId).split("\\").join("/")

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec) !== undefined))
      return super.sort(files)
    const seconds = recordedDurations()
    const root = this.ctx.config.root
    // A file with no recorded time (a new one) goes first, as vitest runs unknown files first.
    const time = (spec: TestSpecification) =>
      seconds[durationKey(root, spec.moduleId)] ?? Number.POSITIVE_INFINITY
    return [...files].sort((a, b) => {
      const d = time(b) - time(a)
      return Number.isNaN(d) ? 0 : d
    })
  }
}
