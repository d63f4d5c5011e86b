// Turns an effect/Schema parse failure into value-free issues `{ path, rule }`: where the input
// broke and which rule (maxLength, pattern, required, unknownKey, ...), never the input itself.
import { Either, ParseResult, type Schema, SchemaAST } from "effect"
import { Invalid, type Issue } from "./errors.js"

/** Names a custom refinement's rule in issues (e.g. "calendarDate"). */
export const RuleAnnotationId = Symbol.for("@folio/domain/rule")

const ruleOfRefinement = (ast: SchemaAST.Refinement): string => {
  const named = ast.annotations[RuleAnnotationId]
  if (typeof named === "string") return named
  const json = ast.annotations[SchemaAST.JSONSchemaAnnotationId]
  if (typeof json === "object" && json !== null) {
    const key = Object.keys(json).find((k) => k !== "type" && k !== "description" && k !== "title")
    if (key !== undefined) return key
  }
  const id = ast.annotations[SchemaAST.SchemaIdAnnotationId]
  if (typeof id === "symbol")
    return (id.description ?? "refinement").replace(/^effect\/schema\/|SchemaId$/g, "")
  return "refinement"
}

const ruleOfType = (ast: SchemaAST.AST): string => {
  switch (ast._tag) {
    case "Literal":
    case "Union":
      return "enum"
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
    default:
      return "type"
  }
}

type Path = ReadonlyArray<string | number>

const collect = (issue: ParseResult.ParseIssue, path: Path, out: Array<Issue>): void => {
  switch (issue._tag) {
    case "Pointer": {
      const segments = (Array.isArray(issue.path) ? issue.path : [issue.path]) as ReadonlyArray<PropertyKey>
      collect(issue.issue, [...path, ...segments.map((s) => (typeof s === "number" ? s : String(s)))], out)
      return
    }
    case "Composite": {
      const issues = Array.isArray(issue.issues) ? issue.issues : [issue.issues]
      for (const i of issues as ReadonlyArray<ParseResult.ParseIssue>) collect(i, path, out)
      return
    }
    case "Refinement":
      if (issue.kind === "Predicate") out.push({ path, rule: ruleOfRefinement(issue.ast) })
      else collect(issue.issue, path, out)
      return
    case "Transformation":
      collect(issue.issue, path, out)
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
    case "Type":
      out.push({ path, rule: ruleOfType(issue.ast) })
      return
  }
}

export const issuesOf = (error: ParseResult.ParseError): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  collect(error.issue, [], out)
  const seen = new Set<string>()
  return out.filter((i) => {
    const key = JSON.stringify(i)
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
