// Effect's generated OpenAPI documents as every service publishes them: generator marks removed,
// schema nodes written as the published documents always have, class components under their class
// names, and the bearer scheme under its conventional lowercase name.

type Json = Record<string, unknown>

/**
 * Removes generator `$id`s such as "/schemas/unknown" (identical ones clash inside one schema) and
 * the draft-07 `$schema` that embedded JSON Schema documents carry (the document's dialect is
 * OpenAPI 3.1's; a 2020-12 validator does not load draft-07 and refuses the schema).
 */
export const withoutGeneratorMarks = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withoutGeneratorMarks)
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .filter(
        ([k, v]) =>
          !(k === "$id" && typeof v === "string" && v.startsWith("/schemas/")) &&
          !(k === "$schema" && v === "http://json-schema.org/draft-07/schema#")
      )
      .map(([k, v]) => [k, withoutGeneratorMarks(v)])
  )
}

/**
 * Schema nodes as the published document has always written them, where Effect 4's generator
 * writes the same constraint differently: an integer carries no safe-integer bounds (they are
 * implied), and an object with no declared keys (a record of unknown values) says so with
 * `additionalProperties: {}`, which client generators read as "any key" rather than "no key".
 */
export const withPublishedNodes = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(withPublishedNodes)
  if (typeof value !== "object" || value === null) return value
  const node: Json = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withPublishedNodes(v)]))
  if (node.type === "integer") {
    if (node.maximum === Number.MAX_SAFE_INTEGER) delete node.maximum
    if (node.minimum === Number.MIN_SAFE_INTEGER) delete node.minimum
  }
  if (
    node.type === "object" &&
    !("properties" in node || "additionalProperties" in node || "patternProperties" in node)
  )
    node.additionalProperties = {}
  return node
}

/** Every `$ref` to a component renamed by `names` (old name to new), anywhere in `value`. */
export const renameRefs = (value: unknown, names: ReadonlyMap<string, string>): unknown => {
  if (Array.isArray(value)) return value.map((v) => renameRefs(v, names))
  if (typeof value !== "object" || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/components/schemas/")) {
        const name = v.slice("#/components/schemas/".length)
        return [k, `#/components/schemas/${names.get(name) ?? name}`]
      }
      return [k, renameRefs(v, names)]
    })
  )
}

/**
 * Class components under their class's name: Effect 4 names the encoded side of `class X` "XEncoded"
 * (the document has no other side of it), where the published document has always said "X".
 */
export const withClassNames = <
  D extends { paths: unknown; components: { schemas: Record<string, unknown> } }
>(
  doc: D
): D => {
  const schemas = doc.components.schemas
  const names = new Map<string, string>()
  for (const name of Object.keys(schemas)) {
    const base = name.replace(/Encoded$/, "")
    if (base !== name && !(base in schemas)) names.set(name, base)
  }
  if (names.size === 0) return doc
  return {
    ...doc,
    paths: renameRefs(doc.paths, names),
    components: {
      ...doc.components,
      schemas: Object.fromEntries(
        Object.entries(schemas).map(([name, schema]) => [names.get(name) ?? name, renameRefs(schema, names)])
      )
    }
  }
}

/** Whether a component is only the JSON text of another schema (what `Schema.fromJsonString` exports). */
const isJsonText = (schema: unknown): schema is Json =>
  typeof schema === "object" &&
  schema !== null &&
  (schema as Json).type === "string" &&
  (schema as Json).contentMediaType === "application/json" &&
  "contentSchema" in schema

/**
 * JSON-text components inlined where they are used: the generator names the encoded side of
 * `fromJsonString(X)` "XEncoded", a component clients would meet beside X for what is only "a string
 * holding X" (a multipart text part); inline, the part reads `{type: string, contentSchema: X}`.
 */
export const withJsonTextInlined = <
  D extends { paths: unknown; components: { schemas: Record<string, unknown> } }
>(
  doc: D
): D => {
  const inline = new Map(Object.entries(doc.components.schemas).filter(([, schema]) => isJsonText(schema)))
  if (inline.size === 0) return doc
  const replace = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(replace)
    if (typeof value !== "object" || value === null) return value
    const ref = (value as Json).$ref
    if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
      const target = inline.get(ref.slice("#/components/schemas/".length))
      if (target !== undefined) {
        const { $ref: _, ...siblings } = value as Json
        return { ...target, ...siblings }
      }
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, replace(v)]))
  }
  return {
    ...doc,
    paths: replace(doc.paths),
    components: {
      ...doc.components,
      schemas: Object.fromEntries(
        Object.entries(doc.components.schemas)
          .filter(([name]) => !inline.has(name))
          .map(([name, schema]) => [name, replace(schema)])
      )
    }
  }
}

/**
 * Paths relative to the document's server URL, as OpenAPI reads them (a client joins the two): the
 * generator writes the HttpApi's full paths, so with `servers: [{url: "/share/api/v1"}]` a generated
 * client would ask for "/share/api/v1/share/api/v1/me".
 */
export const withPathsRelativeToServer = <
  D extends { paths: unknown; servers?: ReadonlyArray<{ url: string }> }
>(
  doc: D
): D => {
  const base = (doc.servers?.[0]?.url ?? "/").replace(/\/$/, "")
  if (base === "") return doc
  const paths = doc.paths as Record<string, unknown>
  return {
    ...doc,
    paths: Object.fromEntries(
      Object.entries(paths).map(([path, item]) => {
        if (!path.startsWith(`${base}/`)) throw new Error(`${path} lies outside the server URL ${base}`)
        return [path.slice(base.length), item]
      })
    )
  }
}

/** A generated document as published: every normalisation above. */
export const publishedOpenApi = <
  D extends { paths: unknown; components: { schemas: Record<string, unknown> } }
>(
  generated: D
): D => {
  const renamed = JSON.parse(JSON.stringify(generated).replaceAll('"Bearer"', '"bearer"')) as D
  return withPathsRelativeToServer(
    withClassNames(withJsonTextInlined(withPublishedNodes(withoutGeneratorMarks(renamed)) as D))
  )
}
