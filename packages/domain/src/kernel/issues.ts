// Turns an effect/Schema parse failure into value-free issues `{ path, rule, expected?, allowed? }`:
// where the input broke, which rule (maxLength, range, pattern, required, unknownKey, ...) and what
// the schema wanted, never the input itself.
import { Either, ParseResult, type Schema, SchemaAST } from "effect"
import { Invalid, type Issue } from "./errors.js"

/** Names a custom refinement's rule in issues (e.g. "calendarDate"). */
export const RuleAnnotationId = Symbol.for("@folio/domain/rule")

type Json = Record<string, unknown>
type Literal = string | number | boolean | null

const jsonSchemaOf = (ast: SchemaAST.AST): Json => {
  const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId]
  return typeof json === "object" && json !== null ? (json as Json) : {}
}

const descriptionOf = (ast: SchemaAST.AST): string | undefined => {
  const d = ast.annotations[SchemaAST.DescriptionAnnotationId]
  return typeof d === "string" ? d : undefined
}

/** `ValidDateSchemaId` -> `validDate`. */
const camel = (name: string) => name.charAt(0).toLowerCase() + name.slice(1)

const ruleOfRefinement = (ast: SchemaAST.Refinement): string => {
  const named = ast.annotations[RuleAnnotationId]
  if (typeof named === "string") return named
  const json = jsonSchemaOf(ast)
  const has = (k: string) => k in json
  if ((has("minimum") || has("exclusiveMinimum")) && (has("maximum") || has("exclusiveMaximum")))
    return "range"
  if (has("minLength") && has("maxLength")) return "length"
  if (has("minItems") && has("maxItems")) return "itemCount"
  if (json.type === "integer") return "integer"
  const key = Object.keys(json).find((k) => k !== "type" && k !== "description" && k !== "title")
  if (key !== undefined) return key
  const id = ast.annotations[SchemaAST.SchemaIdAnnotationId]
  if (typeof id === "symbol")
    return camel((id.description ?? "refinement").replace(/^effect\/schema\/|SchemaId$/g, ""))
  return "refinement"
}

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<Literal> | undefined => {
  if (ast._tag === "Literal") return [ast.literal as Literal]
  if (ast._tag !== "Union") return undefined
  const out: Array<Literal> = []
  for (const member of ast.types) {
    if (member._tag === "UndefinedKeyword") continue
    const inner = literalsOf(member)
    if (inner === undefined) return undefined
    out.push(...inner)
  }
  return out
}

const ruleOfType = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "Literal":
      return "enum"
    case "Union":
      return literalsOf(ast) === undefined ? "type" : "enum"
    case "NumberKeyword":
      return "number"
    case "StringKeyword":
      return "string"
    case "BooleanKeyword":
      return "boolean"
    case "TypeLiteral":
      return "object"
    case "TupleType":
      return "array"
    case "Transformation":
      return ruleOfType(ast.to)
    case "Refinement":
      return ruleOfType(ast.from)
    case "Suspend":
      return ruleOfType(ast.f())
    default:
      return "type"
  }
}

const oneOf = (values: ReadonlyArray<Literal>) => `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`

/** What a refinement chain asks for, from its JSON Schema annotations (outer ones win). */
const describeRefinement = (ast: SchemaAST.Refinement): string | undefined => {
  const chain: Array<SchemaAST.Refinement> = []
  let base: SchemaAST.AST = ast
  while (base._tag === "Refinement") {
    chain.unshift(base)
    base = base.from
  }
  const c: Json = Object.assign({}, ...chain.map(jsonSchemaOf))
  const n = (k: string) => (typeof c[k] === "number" ? (c[k] as number) : undefined)
  const [min, max, xmin, xmax] = [n("minimum"), n("maximum"), n("exclusiveMinimum"), n("exclusiveMaximum")]
  if (
    min !== undefined ||
    max !== undefined ||
    xmin !== undefined ||
    xmax !== undefined ||
    c.type === "integer"
  ) {
    const noun = c.type === "integer" ? "an integer" : "a number"
    if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`
    const bounds = [
      min === undefined ? undefined : `greater than or equal to ${min}`,
      xmin === undefined ? undefined : `greater than ${xmin}`,
      max === undefined ? undefined : `less than or equal to ${max}`,
      xmax === undefined ? undefined : `less than ${xmax}`
    ].filter((b) => b !== undefined)
    return bounds.length === 0 ? noun : `${noun} ${bounds.join(" and ")}`
  }
  const [minLength, maxLength] = [n("minLength"), n("maxLength")]
  if (minLength !== undefined || maxLength !== undefined || typeof c.pattern === "string") {
    const size =
      minLength !== undefined && maxLength !== undefined
        ? minLength === maxLength
          ? ` of exactly ${minLength} characters`
          : ` of ${minLength} to ${maxLength} characters`
        : maxLength !== undefined
          ? ` of at most ${maxLength} characters`
          : minLength !== undefined
            ? ` of at least ${minLength} characters`
            : ""
    return `a string${size}${typeof c.pattern === "string" ? ` matching /${c.pattern}/` : ""}`
  }
  const [minItems, maxItems] = [n("minItems"), n("maxItems")]
  if (minItems !== undefined || maxItems !== undefined) {
    if (minItems !== undefined && maxItems !== undefined)
      return `an array of ${minItems} to ${maxItems} items`
    return maxItems !== undefined
      ? `an array of at most ${maxItems} items`
      : `an array of at least ${minItems} items`
  }
  return descriptionOf(ast) ?? describe(ast.from)
}

/** In words, what a schema accepts; undefined where it has nothing useful to say. */
const describe = (ast: SchemaAST.AST): string | undefined => {
  switch (ast._tag) {
    case "Refinement":
      return describeRefinement(ast)
    case "Transformation":
      return describe(ast.to)
    case "Suspend":
      return describe(ast.f())
    case "Literal":
      return oneOf([ast.literal as Literal])
    case "Union": {
      const literals = literalsOf(ast)
      if (literals !== undefined) return oneOf(literals)
      const members = ast.types.filter((t) => t._tag !== "UndefinedKeyword").map(describe)
      return members.every((m) => m !== undefined) ? members.join(" or ") : descriptionOf(ast)
    }
    case "StringKeyword":
      return "a string"
    case "NumberKeyword":
      return "a number"
    case "BooleanKeyword":
      return "a boolean"
    case "TypeLiteral":
      return descriptionOf(ast) ?? "an object"
    case "TupleType":
      return descriptionOf(ast) ?? "an array"
    default:
      return descriptionOf(ast)
  }
}

type Path = ReadonlyArray<string | number>

const issue = (path: Path, rule: string, ast: SchemaAST.AST): Issue => {
  const expected = describe(ast)
  const allowed = rule === "enum" ? literalsOf(ast) : undefined
  return {
    path,
    rule,
    ...(expected === undefined ? {} : { expected }),
    ...(allowed === undefined ? {} : { allowed })
  }
}

const isAbsentMember = (i: ParseResult.ParseIssue) => i._tag === "Type" && i.ast._tag === "UndefinedKeyword"

/** Whether a union member's failure says more than "not this type" (it got inside the value). */
const explains = (i: ParseResult.ParseIssue): boolean => {
  if (i._tag === "Type") return false
  if (i._tag === "Composite" && i.ast._tag === "Union") {
    const members = (Array.isArray(i.issues) ? i.issues : [i.issues]) as ReadonlyArray<ParseResult.ParseIssue>
    return members.some((m) => !isAbsentMember(m) && explains(m))
  }
  return true
}

/**
 * `outer` is the outermost refinement being decoded: a value that fails an inner step (not a number
 * at all, not an integer) is still told everything the field expects.
 */
const collect = (
  i: ParseResult.ParseIssue,
  path: Path,
  out: Array<Issue>,
  outer: SchemaAST.AST | undefined
): void => {
  switch (i._tag) {
    case "Pointer": {
      const segments = (Array.isArray(i.path) ? i.path : [i.path]) as ReadonlyArray<PropertyKey>
      collect(
        i.issue,
        [...path, ...segments.map((s) => (typeof s === "number" ? s : String(s)))],
        out,
        undefined
      )
      return
    }
    case "Composite": {
      const issues = (
        Array.isArray(i.issues) ? i.issues : [i.issues]
      ) as ReadonlyArray<ParseResult.ParseIssue>
      if (i.ast._tag !== "Union") {
        for (const inner of issues) collect(inner, path, out, outer)
        return
      }
      // A union: an optional field's `undefined` member never explains a value that is present;
      // members that got past the value's type explain it best; when none did, the union's own
      // description (every allowed value) is the one issue.
      const deeper = issues.filter((m) => !isAbsentMember(m) && explains(m))
      if (deeper.length > 0) {
        for (const inner of deeper) collect(inner, path, out, outer)
        return
      }
      out.push(issue(path, ruleOfType(i.ast), outer ?? i.ast))
      return
    }
    case "Refinement":
      if (i.kind === "Predicate") out.push(issue(path, ruleOfRefinement(i.ast), outer ?? i.ast))
      else collect(i.issue, path, out, outer ?? i.ast)
      return
    case "Transformation":
      collect(i.issue, path, out, outer)
      return
    case "Missing":
      out.push({ path, rule: "required" })
      return
    case "Unexpected":
      out.push({ path, rule: "unknownKey" })
      return
    case "Forbidden":
      out.push({ path, rule: "forbidden" })
      return
    case "Type": {
      const rule = ruleOfType(i.ast)
      out.push(issue(path, rule, rule === "enum" ? i.ast : (outer ?? i.ast)))
      return
    }
  }
}

/**
 * The one mapping from a Schema decode failure to value-free issues, used by the domain's decoders,
 * the REST adapter and the MCP tools alike: each problem once, with the rule it broke and what was
 * expected (from the schema, never from the input).
 */
export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  collect(error.issue, [], out, undefined)
  const seen = new Set<string>()
  return out.filter((i) => {
    const key = JSON.stringify([i.path, i.rule])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

export const STRICT_ALL = { errors: "all", onExcessProperty: "error" } as const

/**
 * A strict decoder (unknown keys rejected, every issue reported) that fails with Invalid; `semantics`
 * runs only on a value whose shape is right and adds its own issues.
 */
export const strictDecoder = <A, I>(
  schema: Schema.Schema<A, I, never>,
  what: string,
  semantics: (value: A) => ReadonlyArray<Issue> = () => []
) => {
  const decode = ParseResult.decodeUnknownEither(schema, STRICT_ALL)
  const invalid = (issues: ReadonlyArray<Issue>) =>
    new Invalid({ message: `${what} failed validation`, issues })
  return (input: unknown): Either.Either<A, Invalid> => {
    const shape = decode(input)
    if (Either.isLeft(shape))
      return Either.left(invalid(issuesOf(new ParseResult.ParseError({ issue: shape.left }))))
    const issues = semantics(shape.right)
    return issues.length === 0 ? Either.right(shape.right) : Either.left(invalid(issues))
  }
}
