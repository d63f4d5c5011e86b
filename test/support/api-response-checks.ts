// Every test file's fetch, checked: an answer of the forms or sharing API that its OpenAPI document
// does not describe fails the test that received it (thrown from fetch, naming method, path, status
// and the schema errors), and fails it even when the test swallowed that error (Promise.allSettled,
// a .catch), through the afterEach below. Installed for every file by vitest.config.ts.
import { afterAll, afterEach } from "vitest"
import { apiResponseProblem } from "./api-responses.js"

const unseen: Array<Error> = []
// Files share a worker process (vitest.config.ts, isolate: false), and this file runs again for
// each: the unchecked fetch is kept once, so each file wraps it, not the previous file's wrapper.
const PLAIN_FETCH = Symbol.for("folio.test.plainFetch")
const holder = globalThis as typeof globalThis & { [PLAIN_FETCH]?: typeof fetch }
holder[PLAIN_FETCH] ??= globalThis.fetch
const plain = holder[PLAIN_FETCH]

globalThis.fetch = async (input, init) => {
  const response = await plain(input, init)
  const url = input instanceof Request ? input.url : String(input)
  const method = init?.method ?? (input instanceof Request ? input.method : "GET")
  const problem = await apiResponseProblem(method, url, response)
  if (problem === undefined) return response
  const error = new Error(`An answer the OpenAPI document does not describe: ${problem}`)
  unseen.push(error)
  throw error
}

/** Raises a mismatch that a test (or a hook) caught and did not report itself. */
const raiseUnseen = (reported: ReadonlyArray<{ readonly message?: string }>) => {
  const missed = unseen.filter((e) => !reported.some((r) => r.message?.includes(e.message)))
  unseen.length = 0
  if (missed.length > 0) throw new Error(missed.map((e) => e.message).join("\n"))
}

afterEach((context) => raiseUnseen(context.task.result?.errors ?? []))
afterAll(() => raiseUnseen([]))
