// Tests import the workspace packages from source, so `npm test` needs no build step.
import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"
import LongestFirstSequencer from "./test/support/longest-first-sequencer.js"

const root = fileURLToPath(new URL(".", import.meta.url))

export default defineConfig({
  resolve: {
    alias: [
      { find: /^@folio\/([a-z-]+)$/, replacement: `${root}packages/$1/src/index.ts` },
      // A package's subpath entry (`@folio/adapters-http/shared`) is its folder's index.
      { find: /^@folio\/([a-z-]+)\/([a-z-]+)$/, replacement: `${root}packages/$1/src/$2/index.ts` }
    ]
  },
  test: {
    include: ["test/**/*.test.ts"],
    // The public form page serves the script and stylesheet build-page-assets.mjs makes; the
    // embedded database's suites copy one migrated data directory made once per run, and the
    // PostgreSQL suites one migrated database.
    globalSetup: [
      "./test/support/page-assets.ts",
      "./test/support/pglite-template.ts",
      "./test/support/pg-template.ts"
    ],
    // Every answer of the forms and sharing APIs checked against their OpenAPI documents.
    setupFiles: ["./test/support/api-response-checks.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Vitest's default in a run is one worker fewer than the cores: one file at a time on the
    // two-core machines we run on, with the second core idle while that file waits on PostgreSQL,
    // HTTP and Chromium. Two files at a time keep both cores busy.
    maxWorkers: 2,
    // Files run one after another in each worker, sharing its loaded modules: a new process and a
    // fresh import of the app per file was a fifth of the run (203 files). The suites keep no
    // global state between files (no module mocks, env or timer stubs; the one global they change,
    // fetch, api-response-checks.ts wraps once per file from the plain one).
    isolate: false,
    // On a clean clone (CI), the slowest files start first, by one run's recorded times, so the
    // two workers end together; vitest's own timings, once it has them, order a local run.
    sequence: { sequencer: LongestFirstSequencer },
    reporters: ["default", "./test/support/summary-reporter.ts"]
  }
})
