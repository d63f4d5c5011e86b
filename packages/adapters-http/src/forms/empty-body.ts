// Routes whose body is optional and, when sent, an empty object (POST /forms/{id}/duplicate and
// POST /f/{slug}/responses/resume): clients commonly send `{}`, so both that and no body are
// accepted; anything else is refused strictly, as every other body is (unknown keys named by path,
// the input never echoed).
import { Effect } from "effect"
import { HttpServerRequest } from "effect/http"
import { RequestInvalid } from "../shared/index.js"

const refused = "this route takes no body, or an empty object"

export const requireEmptyBody: Effect.Effect<void, RequestInvalid, HttpServerRequest.HttpServerRequest> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    // The envelope middleware has already refused a body that is not JSON (whitespace included).
    const text = yield* Effect.orDie(request.text)
    if (text === "") return
    const body: unknown = JSON.parse(text)
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return yield* new RequestInvalid({ message: refused, issues: [{ path: [], rule: "object" }] })
    }
    const keys = Object.keys(body)
    if (keys.length > 0) {
      return yield* new RequestInvalid({
        message: refused,
        issues: keys.map((k) => ({ path: [k], rule: "unknownKey" }))
      })
    }
  })
