// Checks a real answer of the forms or sharing API against the OpenAPI document that service serves:
// the status is declared for the operation (exactly, as `4XX`, or as `default`), the content type is
// one the answer declares, a JSON body validates against its schema, and required headers are there.
// Driven by the documents only (no list of routes), so a route added to an HttpApi is checked as soon
// as it is served. The documents are the ones every app serves, built in-process once per test file;
// each schema is compiled once, on its first use, with one Ajv per document (components shared).
import { makeAjv2020 } from "./ajv.js"

type Json = Record<string, unknown>

interface Response {
  readonly description?: string
  readonly headers?: Record<string, { readonly required?: boolean; readonly schema?: Json }>
  readonly content?: Record<string, { readonly schema?: Json }>
}

interface Document {
  readonly servers?: ReadonlyArray<{ readonly url: string }>
  readonly paths: Record<string, Record<string, { readonly responses: Record<string, Response> }>>
}

interface Api {
  readonly id: string
  /** The path every operation's path is relative to (the server URL's path, without a trailing /). */
  readonly base: string
  readonly doc: Document
  readonly templates: ReadonlyArray<{
    readonly template: string
    readonly pattern: RegExp
    readonly params: number
  }>
  readonly ajv: ReturnType<typeof makeAjv2020>
}

const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

const apiOf = (id: string, doc: Document): Api => {
  const ajv = makeAjv2020()
  // Binary bodies are never validated as JSON; the format only says so.
  ajv.addFormat("binary", true)
  ajv.addSchema(doc as unknown as Json, id)
  return {
    id,
    base: new URL(doc.servers?.[0]?.url ?? "/", "http://server").pathname.replace(/\/$/, ""),
    doc,
    templates: Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}/]+\}/g, "[^/]+")}$`
      ),
      params: (template.match(/\{/g) ?? []).length
    })),
    ajv
  }
}

let apis: Promise<ReadonlyArray<Api>> | undefined

/** The served documents, loaded on the first API answer (a test file that never calls one pays nothing). */
const loadApis = () => {
  apis ??= import("@folio/adapters-http").then(({ formsOpenApiDocument, sharingOpenApiDocument }) => [
    apiOf("sharing-openapi", sharingOpenApiDocument() as unknown as Document),
    apiOf("forms-openapi", formsOpenApiDocument() as unknown as Document)
  ])
  return apis
}

/** The operation a request reaches: the most literal template matching its path that has its method. */
const operationOf = (all: ReadonlyArray<Api>, method: string, pathname: string) => {
  for (const api of all) {
    if (api.base !== "" && !pathname.startsWith(`${api.base}/`)) continue
    const rest = pathname.slice(api.base.length)
    const found = api.templates
      .filter((t) => t.pattern.test(rest) && api.doc.paths[t.template]?.[method] !== undefined)
      .sort((a, b) => a.params - b.params)[0]
    if (found !== undefined)
      return { api, template: found.template, operation: api.doc.paths[found.template]?.[method] }
  }
  return undefined
}

const pointer = (...tokens: ReadonlyArray<string>) =>
  tokens.map((t) => encodeURIComponent(t.replaceAll("~", "~0").replaceAll("/", "~1"))).join("/")

const validators = new Map<string, ReturnType<ReturnType<typeof makeAjv2020>["compile"]>>()

const validatorOf = (api: Api, template: string, method: string, status: string, media: string) => {
  const ref = `${api.id}#/${pointer("paths", template, method, "responses", status, "content", media, "schema")}`
  let validate = validators.get(ref)
  if (validate === undefined) {
    validate = api.ajv.compile({ $ref: ref })
    validators.set(ref, validate)
  }
  return validate
}

const isJson = (media: string) => media === "application/json" || media.endsWith("+json")

const declares = (declared: ReadonlyArray<string>, media: string) =>
  declared.some((d) => d === media || d === "*/*" || (d.endsWith("/*") && media.startsWith(d.slice(0, -1))))

/**
 * What is wrong with `response` as an answer to `method url`, against the document of the API it
 * belongs to; undefined when it conforms, or when the request is no documented operation (a page, an
 * unknown path, a method the path does not have). Reads a JSON body from a clone.
 */
export const apiResponseProblem = async (
  method: string,
  url: string,
  response: globalThis.Response
): Promise<string | undefined> => {
  const { pathname } = new URL(url)
  const m = method.toLowerCase()
  if (!METHODS.has(m)) return undefined
  const found = operationOf(await loadApis(), m, pathname)
  if (found?.operation === undefined) return undefined
  const { api, template, operation } = found
  const where = `${method.toUpperCase()} ${pathname} (${template})`
  const responses = operation.responses
  if (response.redirected) {
    // fetch followed a redirect: the answer seen is the target's, the operation's was a 3xx.
    return Object.keys(responses).some((s) => /^3/.test(s))
      ? undefined
      : `${where} redirected, but the document declares no 3xx answer`
  }
  const status = String(response.status)
  const key = [status, `${status[0]}XX`, "default"].find((k) => responses[k] !== undefined)
  const declared = key === undefined ? undefined : responses[key]
  if (key === undefined || declared === undefined)
    return `${where} answered ${status}, a status the document does not declare (it declares ${Object.keys(responses).join(", ")})`
  const problems: Array<string> = []
  for (const [name, header] of Object.entries(declared.headers ?? {})) {
    const value = response.headers.get(name)
    if (value === null) {
      if (header.required === true) problems.push(`required header ${name} is missing`)
    } else if (header.schema?.type === "integer" && !/^-?\d+$/.test(value))
      problems.push(`header ${name} is not an integer`)
  }
  const media = (response.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? ""
  const content = Object.keys(declared.content ?? {})
  if (media !== "" && m !== "head") {
    if (content.length === 0) {
      if (response.headers.get("content-length") !== "0")
        problems.push(`a ${media} body, where the document declares none`)
    } else if (!declares(content, media))
      problems.push(`content type ${media}, where the document declares ${content.join(", ")}`)
    else if (isJson(media)) {
      const text = await response.clone().text()
      let body: unknown
      try {
        body = JSON.parse(text)
      } catch {
        problems.push("a body that is not JSON")
      }
      const schemaMedia = content.includes(media)
        ? media
        : (content.find((d) => declares([d], media)) ?? media)
      const validate = validatorOf(api, template, m, key, schemaMedia)
      if (body !== undefined && !validate(body))
        problems.push(
          `body does not match the ${key} schema: ${(validate.errors ?? [])
            .slice(0, 8)
            .map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword} ${JSON.stringify(e.params)}`)
            .join("; ")}; body: ${text.slice(0, 400)}`
        )
    }
  }
  return problems.length === 0 ? undefined : `${where} answered ${status}: ${problems.join("; ")}`
}
