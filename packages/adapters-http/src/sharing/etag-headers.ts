// The resource ETag headers every sharing route that reads or writes one resource uses: the
// answer's X-Resource-ETag, and the precondition a write may send (the X- header, preferred, or the
// standard If-Match).
import { Schema } from "effect"
import { HttpApiSchema } from "effect/http-api"

/** A body answered with the resource's ETag in `X-Resource-ETag`. */
export const WithResourceEtag = <S extends Schema.Top>(body: S) =>
  HttpApiSchema.WithHeaders(body, { "x-resource-etag": Schema.String })

/** The preconditions a resource write may send. */
export const ResourceIfMatch = {
  "x-resource-if-match": Schema.optional(Schema.String),
  "if-match": Schema.optional(Schema.String)
}

/** The precondition of a resource write: X-Resource-If-Match, else the standard If-Match. */
export const resourceIfMatchOf = (headers: {
  readonly "x-resource-if-match"?: string | undefined
  readonly "if-match"?: string | undefined
}) => headers["x-resource-if-match"] ?? headers["if-match"]
