// Adds one plain closing line, `vitest: N passed, N failed, N skipped`, after vitest's own summary, so
// tools that read only a run's last lines (CI) see the counts without parsing vitest's colours.
// With WRITE_FILE_DURATIONS=1, a run also writes the time of each file it ran to
// file-durations.json, the order longest-first-sequencer.ts starts files in on a clean clone.
import { writeFileSync } from "node:fs"
import type { Reporter, TestModule, Vitest } from "vitest/node"
import { DURATIONS_FILE, durationKey, recordedDurations } from "./longest-first-sequencer.js"

export default class SummaryReporter implements Reporter {
  private line = ""
  private root = ""

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0
    let failed = 0
    let skipped = 0
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state
        if (state === "passed") passed++
        else if (state === "failed") failed++
        else skipped++
      }
    }
    this.line = `vitest: ${passed} passed, ${failed} failed, ${skipped} skipped`
    if (process.env.WRITE_FILE_DURATIONS === "1") this.writeDurations(testModules)
    // The default reporter prints its summary after this hook; come last.
    process.once("exit", () => process.stdout.write(`\n${this.line}\n`))
  }

  /** Each file's time into file-durations.json: the files this run ran, the others' kept. */
  private writeDurations(testModules: ReadonlyArray<TestModule>): void {
    const seconds = recordedDurations()
    for (const m of testModules)
      seconds[durationKey(this.root, m.moduleId)] = Math.round(m.diagnostic().duration / 100) / 10
    const sorted = Object.keys(seconds)
      .sort()
      .map((file) => [file, seconds[file]])
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(Object.fromEntries(sorted), null, 2)}\n`)
  }
}
