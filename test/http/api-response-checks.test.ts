// The answer checker every test file's fetch goes through (support/api-response-checks.ts): it
// accepts the answers the documents describe and names what is wrong with those they do not.
import { describe, expect, it } from "vitest"
import { apiResponseProblem } from "../support/api-responses.js"

const origin = "http://127.0.0.1:1"
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })
const notFound = { error: "not found", error_code: "not_found" }

describe("the API answer checker", () => {
  it("accepts a declared status with a body matching its schema", async () => {
    expect(
      await apiResponseProblem("GET", `${origin}/share/api/v1/jobs/job_1`, json(404, notFound))
    ).toBeUndefined()
    expect(
      await apiResponseProblem(
        "DELETE",
        `${origin}/forms/api/v1/forms/frm_1`,
        new Response(null, { status: 204 })
      )
    ).toBeUndefined()
  })

  it("refuses a status the operation does not declare, naming method, path and status", async () => {
    expect(await apiResponseProblem("GET", `${origin}/share/api/v1/jobs/job_1`, json(418, notFound))).toMatch(
      /^GET \/share\/api\/v1\/jobs\/job_1 \(\/jobs\/\{id\}\) answered 418, a status the document does not declare/
    )
  })

  it("refuses a body that breaks the schema, with Ajv's errors", async () => {
    const problem = await apiResponseProblem(
      "GET",
      `${origin}/share/api/v1/jobs/job_1`,
      json(404, { error: "not found", error_code: "not_found", extra: 1 })
    )
    expect(problem).toMatch(/answered 404: body does not match the 404 schema: .*additional/)
  })

  it("refuses an undeclared content type and a missing required header", async () => {
    const html = new Response("<p>hi</p>", { status: 404, headers: { "content-type": "text/html" } })
    expect(await apiResponseProblem("GET", `${origin}/share/api/v1/jobs/job_1`, html)).toMatch(
      /content type text\/html, where the document declares application\/json/
    )
    const limited = { error: "slow down", error_code: "rate_limited" }
    expect(await apiResponseProblem("GET", `${origin}/share/api/v1/me`, json(429, limited))).toMatch(
      /required header Retry-After is missing/
    )
    expect(
      await apiResponseProblem("GET", `${origin}/share/api/v1/me`, json(429, limited, { "retry-after": "3" }))
    ).toBeUndefined()
  })

  it("leaves alone what is no documented operation (pages, unknown paths)", async () => {
    const page = new Response("<p>hi</p>", { status: 200, headers: { "content-type": "text/html" } })
    expect(await apiResponseProblem("GET", `${origin}/s/abc`, page)).toBeUndefined()
    expect(
      await apiResponseProblem("GET", `${origin}/share/api/v1/nothing-here`, json(404, notFound))
    ).toBeUndefined()
  })
})
