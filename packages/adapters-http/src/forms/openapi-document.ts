// The served OpenAPI document: what HttpApi generates, corrected to describe what the server sends.
// HttpApi's generator knows the declared error classes, not the routes' behaviour, so a few facts
// are applied here after generation (each one checked by test/http/openapi-document.test.ts):
// - every 400 is our `invalid` envelope (the request guard turns HttpApi's decode errors into it);
// - 409 is `conflict` or `unsupported_kind` per route, and absent where neither can happen;
// - every route can answer 431 (Node refuses an overlong request line before any route runs);
// - the public /f routes take no API key, so they never answer 401 (and never 422);
// - generator `$id`s such as "/schemas/unknown" and embedded draft-07 `$schema`s are dropped (Effect 4
//   writes none today; repeated inside one schema they make Ajv, and proxies built on it, refuse it);
// - the redirect-only files route gets a `default` (the envelope), since it has no 2xx;
// - the optional `{}` body of the duplicate and resume routes, the error table, and this document's
//   own route;
// - Effect 4's spelling is put back to the published one: a class's component is named after the
//   class (the generator appends "Encoded"), the bearer scheme is `bearer`, every success response
//   is described "Success" (the generator says "<No Content>" for empty ones), integers carry no
//   safe-integer bounds, and records of unknown values keep `additionalProperties: {}`.
import { OpenApi } from "effect/http-api"
import { type CodeSpec, statusOf } from "../shared/index.js"
import { FORMS_API_PREFIX, FormsApi } from "./Api.js"
import { type FormsCode, FormsErrors } from "./errors.js"
import { withClassNames, withoutGeneratorMarks, withPublishedNodes } from "../shared/index.js"

type Json = { [key: string]: unknown }

const CODES = Object.entries(FormsErrors.codes) as ReadonlyArray<[FormsCode, CodeSpec]>

/** The component an error class is published as (its identifier). */
const componentOf = (code: FormsCode): string => FormsErrors.codes[code].error.identifier

/** The document's error table: every code of the forms error table, its status and meaning, by status. */
const errorTable = () =>
  [
    "Every error is `{ ok: false, error: { code, message, details? } }`.",
    "",
    "| code | HTTP status | meaning |",
    "|---|---|---|",
    ...[...CODES]
      .sort(([, a], [, b]) => statusOf(a) - statusOf(b))
      .map(([code, spec]) => `| \`${code}\` | ${statusOf(spec)} | ${spec.meaning} |`)
  ].join("\n")

/** Which 409 codes each operation can answer (an operation not listed never answers 409). */
const CONFLICT_CODES: Record<string, ReadonlyArray<"conflict" | "unsupported_kind">> = {
  // Slug allocation on insert can lose every retry.
  "forms.create": ["conflict"],
  "forms.duplicate": ["conflict"],
  // Compare-and-set writes.
  "forms.patchDefinition": ["conflict"],
  "forms.patchSettings": ["conflict"],
  "forms.setSlug": ["conflict"],
  "forms.publish": ["conflict"],
  "forms.unpublish": ["conflict"],
  // Kind-specific reads.
  "forms.responseSummary": ["unsupported_kind"],
  "forms.insights": ["unsupported_kind"],
  "forms.interviewAnalytics": ["unsupported_kind"],
  // A respondent's repeat (soft_block), a completed response, a lost save race.
  "respondent.start": ["conflict"],
  // A token rotation that kept losing to saves.
  "respondent.resume": ["conflict"],
  "respondent.upload": ["conflict"],
  "respondent.save": ["conflict"],
  "respondent.complete": ["conflict"],
  // The disclosure not accepted, a repeat (soft_block), a lost race between two messages, a token
  // rotation that kept losing (the classic routes' rules, on an interview).
  "respondent.startInterview": ["conflict"],
  "respondent.resumeInterview": ["conflict"],
  "respondent.interviewMessage": ["conflict"],
  "respondent.finishInterview": ["conflict"],
  // Not offered, the interview already ended, the terms changed meanwhile, a lost token rotation.
  "respondent.restartInterview": ["conflict"]
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` })
const json = (schema: unknown) => ({ "application/json": { schema } })

const conflictResponse = (codes: ReadonlyArray<"conflict" | "unsupported_kind">) => {
  const [only] = codes
  const schemas = codes.map((c) => ref(componentOf(c)))
  return {
    description: codes.map((c) => (c === "conflict" ? "Conflict" : "Unsupported form kind")).join(" or "),
    content: json(codes.length === 1 && only !== undefined ? ref(componentOf(only)) : { anyOf: schemas })
  }
}

/** Statuses the public respondent routes never send (no API key; no unprocessable rule). */
const NOT_SENT_BY_PUBLIC_ROUTES = ["401", "422"]

/** The envelope of every code a keyed route can answer, for statuses the document does not list. */
const ERROR_SCHEMAS = FormsErrors.keyedCodes.map(componentOf)

/** The component schemas reachable from `root` (paths), so dropped ones leave nothing dangling. */
const reachableSchemas = (root: unknown, schemas: Record<string, unknown>): Set<string> => {
  const seen = new Set<string>()
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item)
      return
    }
    if (typeof value !== "object" || value === null) return
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const name = v.slice("#/components/schemas/".length)
        if (!seen.has(name)) {
          seen.add(name)
          visit(schemas[name])
        }
      } else visit(v)
    }
  }
  visit(root)
  return seen
}

const openApiOperation = {
  tags: ["meta"],
  operationId: "meta.openapi",
  summary: "This OpenAPI document (no auth, CORS *)",
  security: [],
  responses: {
    "200": {
      description: "The OpenAPI 3.1 document, unwrapped",
      content: json({ type: "object" })
    },
    // Only a malformed request (e.g. oversized headers) fails here, with the envelope.
    "4XX": {
      description: "A malformed request: the error envelope",
      content: json({ anyOf: ERROR_SCHEMAS.map(ref) })
    }
  }
}

/** The body of routes that take none, or `{}` (see empty-body.ts). */
const optionalEmptyBody = {
  required: false,
  description: "Optional; when sent, an empty object",
  content: json({ type: "object", properties: {}, additionalProperties: false })
}

type Responses = Record<string, (Json & { description?: string }) | undefined>

const shape = (generated: OpenApi.OpenAPISpec): OpenApi.OpenAPISpec => {
  const doc = withClassNames(
    withPublishedNodes(withoutGeneratorMarks(generated)) as Json & {
      info: Json
      paths: Record<string, Record<string, Json & { operationId: string; responses: Responses }>>
      components: Json & { schemas: Record<string, unknown>; securitySchemes?: Record<string, Json> }
    }
  )
  const bearer = doc.components.securitySchemes?.bearer
  if (bearer !== undefined) bearer.scheme = "bearer"
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const op of Object.values(methods)) {
      const responses = op.responses
      for (const [status, response] of Object.entries(responses)) {
        if (/^[23]/.test(status) && response?.description === "<No Content>") response.description = "Success"
      }
      if (responses["400"] !== undefined) {
        responses["400"] = {
          description: "Invalid: the request failed validation",
          content: json(ref(componentOf("invalid")))
        }
      }
      // Node's parser refuses an overlong request line or headers on any route (app/client-errors.ts).
      responses["431"] = {
        description: "The request line and headers exceed 16 KiB (a long query string): `invalid`",
        content: json(ref(componentOf("invalid")))
      }
      const conflicts = CONFLICT_CODES[op.operationId] ?? []
      if (conflicts.length === 0) delete responses["409"]
      else responses["409"] = conflictResponse(conflicts)
      if (path.startsWith("/f/")) for (const status of NOT_SENT_BY_PUBLIC_ROUTES) delete responses[status]
      if (!Object.keys(responses).some((s) => s.startsWith("2"))) {
        responses.default = {
          description: "Any status not listed: the error envelope",
          content: json({ anyOf: ERROR_SCHEMAS.map(ref) })
        }
      }
      // Keep the statuses in order (the generator's order is by declaration).
      op.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)))
    }
  }
  for (const path of [`${FORMS_API_PREFIX}/forms/{id}/duplicate`, "/f/{slug}/responses/resume"]) {
    const op = doc.paths[path]?.post
    if (op !== undefined) op.requestBody = optionalEmptyBody
  }
  doc.paths = { [`${FORMS_API_PREFIX}/openapi.json`]: { get: openApiOperation }, ...doc.paths }
  doc.info = { ...doc.info, description: `${String(doc.info.description ?? "")}\n\n${errorTable()}` }
  const used = reachableSchemas(doc.paths, doc.components.schemas)
  doc.components.schemas = Object.fromEntries(
    Object.entries(doc.components.schemas).filter(([name]) => used.has(name))
  )
  return doc as unknown as OpenApi.OpenAPISpec
}

let cached: OpenApi.OpenAPISpec | undefined

/** The document served at /openapi.json (built once; the API definition does not change at run time). */
export const formsOpenApiDocument = (): OpenApi.OpenAPISpec => {
  cached ??= shape(OpenApi.fromApi(FormsApi))
  return cached
}
