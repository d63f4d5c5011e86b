// Adds one plain closing line, `vitest: N passed, N failed, N skipped`, after vitest's own summary, so
// tools that read only a run's last lines (CI) see the counts without parsing vitest's colours.
// With WRITE_FILE_DURATIONS=1, a whole run also writes each file's time to file-durations.json,
// the order longest-first-sequencer.ts starts files in on a clean clone.
import { writeFileSync } from "node:fs"
import { relative } from "node:path"
import type { Reporter, TestModule, Vitest } from "vitest/node"
import { DURATIONS_FILE } from "./longest-first-sequencer.js"

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

  private writeDurations(testModules: ReadonlyArray<TestModule>): void {
    const seconds = testModules
      .map(
        (m) =>
          [relative(this.root, m.moduleId).split("\\").join("/"), m.diagnostic().duration / 1000] as const
      )
      .sort(([a], [b]) => (a < b ? -1 : 1))
    writeFileSync(
      DURATIONS_FILE,
      `${JSON.stringify(Object.fromEntries(seconds.map(([f, s]) => [f, Math.round(s * 10) / 10])), null, 2)}\n`
    )
  }
}
