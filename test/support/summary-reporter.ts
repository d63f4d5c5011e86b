// Adds one plain closing line, `vitest: N passed, N failed, N skipped`, after vitest's own summary, so
// tools that read only a run's last lines (CI) see the counts without parsing vitest's colours.
import type { Reporter, TestModule } from "vitest/node"

export default class SummaryReporter implements Reporter {
  private line = ""

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
    // The default reporter prints its summary after this hook; come last.
    process.once("exit", () => process.stdout.write(`\n${this.line}\n`))
  }
}
