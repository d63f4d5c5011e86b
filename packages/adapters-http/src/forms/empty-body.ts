// Routes whose body is optional and, when sent, an empty object (POST /forms/{id}/duplicate):
// clients commonly send `{}`, so both that and no body are accepted; anything else is refused
// strictly, as every other body is (unknown keys named by path, the input never echoed).
import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { type InvalidError, invalid } from "../errors.js"

const refused = "this route takes no body, or an empty object"

export const requireEmptyBody: Effect.Effect<void, InvalidError, HttpServerRequest.HttpServerRequest> =
  Effect.gen(function* () {
    const request = yield* HttpServerRequest.HttpServerRequest
    const text = yield* request.text.pipe(
      Effect.mapError(() => invalid("the request body could not be read"))
    )
    if (text.trim() === "") return
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return yield* Effect.fail(invalid("request body is not valid JSON"))
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) {
      return yield* Effect.fail(invalid(refused, [{ path: [], rule: "object" }]))
    }
    const keys = Object.keys(body)
    if (keys.length > 0) {
      return yield* Effect.fail(
        invalid(
          refused,
          keys.map((k) => ({ path: [k], rule: "unknownKey" }))
        )
      )
    }
  })
