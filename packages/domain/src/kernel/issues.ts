// Turns an effect/Schema decode failure into value-free issues `{ path, rule, expected?, allowed? }`:
// where the input broke, which rule (maxLength, range, pattern, required, unknownKey, ...) and what
// the schema wanted, never the input itself.
import { Result, Schema, type SchemaAST, type SchemaIssue } from "effect"
import type { Issue } from "./errors.js"
import { checksOf, representationOf } from "./schema-checks.js"

/**
 * The filter annotation that names a custom check's rule in issues (e.g. "calendarDate"). Filter
 * annotations are keyed by strings, so this is a namespaced string rather than a symbol.
 */
export const RuleAnnotationId = "folio/rule"

type Literal = string | number | boolean | null
type Path = ReadonlyArray<string | number>

/** The rule a failed check broke, in the names our documented issues use. */
const ruleOfFilter = (filter: SchemaAST.Check<unknown>, onArray: boolean): string => {
  const named = (filter.annotations as Record<string, unknown> | undefined)?.[RuleAnnotationId]
  if (typeof named === "string") return named
  const r = representationOf(filter)
  if (r === undefined) return "refinement"
  switch (r.id) {
    case "isInt":
      return "integer"
    case "isFinite":
      return "finite"
    case "isBetween":
      return "range"
    case "isGreaterThanOrEqualTo":
      return "minimum"
    case "isGreaterThan":
      return "exclusiveMinimum"
    case "isLessThanOrEqualTo":
      return "maximum"
    case "isLessThan":
      return "exclusiveMaximum"
    case "isMaxLength":
      return onArray ? "maxItems" : "maxLength"
    case "isMinLength":
      return onArray ? "minItems" : "minLength"
    case "isLengthBetween":
      return onArray ? "itemCount" : "length"
    case "isPattern":
      return "pattern"
    default:
      return r.id.replace(/^is/, "").replace(/^[A-Z]/, (m) => m.toLowerCase())
  }
}

const literalsOf = (ast: SchemaAST.AST): ReadonlyArray<Literal> | undefined => {
  if (ast._tag === "Literal") return [ast.literal as Literal]
  if (ast._tag === "Null") return [null]
  if (ast._tag !== "Union") return undefined
  const out: Array<Literal> = []
  for (const member of ast.types) {
    if (member._tag === "Undefined") continue
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
    case "Number":
      return "number"
    case "String":
      return "string"
    case "Boolean":
      return "boolean"
    case "Objects":
      return "object"
    case "Arrays":
      return "array"
    case "Suspend":
      return ruleOfType(ast.thunk())
    default:
      return "type"
  }
}

const oneOf = (values: ReadonlyArray<Literal>) => `one of ${values.map((v) => JSON.stringify(v)).join(", ")}`

const descriptionOf = (ast: SchemaAST.AST): string | undefined => {
  const d = ast.annotations?.description
  return typeof d === "string" ? d : undefined
}

/** The bounds every check of a node sets together, read from the checks' own parameters. */
const boundsOf = (ast: SchemaAST.AST) => {
  const b: {
    integer: boolean
    minimum?: number
    maximum?: number
    exclusiveMinimum?: number
    exclusiveMaximum?: number
    minLength?: number
    maxLength?: number
    pattern?: string
    described?: string
  } = { integer: false }
  for (const check of checksOf(ast)) {
    const r = representationOf(check)
    if (r === undefined) {
      const expected = check.annotations?.expected
      if (typeof expected === "string") b.described = expected
      continue
    }
    const p = r.payload
    const num = (k: string) => (typeof p[k] === "number" ? (p[k] as number) : undefined)
    switch (r.id) {
      case "isInt":
        b.integer = true
        break
      case "isBetween":
      case "isGreaterThanOrEqualTo":
      case "isGreaterThan":
      case "isLessThanOrEqualTo":
      case "isLessThan":
        for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"] as const) {
          const v = num(k)
          if (v !== undefined) b[k] = v
        }
        break
      case "isMinLength":
      case "isMaxLength":
      case "isLengthBetween":
        for (const k of ["minLength", "maxLength"] as const) {
          const v = num(k)
          if (v !== undefined) b[k] = v
        }
        break
      case "isPattern":
        if (typeof p.source === "string") b.pattern = p.source
        break
    }
  }
  return b
}

/** What a node's checks ask for, in words; undefined when it has none worth saying. */
const describeChecks = (ast: SchemaAST.AST): string | undefined => {
  const c = boundsOf(ast)
  const { minimum: min, maximum: max, exclusiveMinimum: xmin, exclusiveMaximum: xmax } = c
  if (min !== undefined || max !== undefined || xmin !== undefined || xmax !== undefined || c.integer) {
    const noun = c.integer ? "an integer" : "a number"
    if (min !== undefined && max !== undefined) return `${noun} from ${min} to ${max}`
    const bounds = [
      min === undefined ? undefined : `greater than or equal to ${min}`,
      xmin === undefined ? undefined : `greater than ${xmin}`,
      max === undefined ? undefined : `less than or equal to ${max}`,
      xmax === undefined ? undefined : `less than ${xmax}`
    ].filter((x) => x !== undefined)
    return bounds.length === 0 ? noun : `${noun} ${bounds.join(" and ")}`
  }
  const { minLength, maxLength } = c
  if (ast._tag === "Arrays" && (minLength !== undefined || maxLength !== undefined)) {
    if (minLength !== undefined && maxLength !== undefined)
      return `an array of ${minLength} to ${maxLength} items`
    return maxLength !== undefined
      ? `an array of at most ${maxLength} items`
      : `an array of at least ${minLength} items`
  }
  if (minLength !== undefined || maxLength !== undefined || c.pattern !== undefined) {
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
    return `a string${size}${c.pattern !== undefined ? ` matching /${c.pattern}/` : ""}`
  }
  return c.described
}

/** In words, what a schema accepts; undefined where it has nothing useful to say. */
const describe = (ast: SchemaAST.AST): string | undefined => {
  const own = descriptionOf(ast)
  if (ast.checks !== undefined) {
    const checks = describeChecks(ast)
    if (checks !== undefined) return own ?? checks
  }
  switch (ast._tag) {
    case "Suspend":
      return own ?? describe(ast.thunk())
    case "Literal":
      return oneOf([ast.literal as Literal])
    case "Union": {
      const literals = literalsOf(ast)
      if (literals !== undefined) return oneOf(literals)
      const members = ast.types.filter((t) => t._tag !== "Undefined").map(describe)
      return members.every((m) => m !== undefined) ? members.join(" or ") : own
    }
    case "String":
      return own ?? "a string"
    case "Number":
      return own ?? "a number"
    case "Boolean":
      return own ?? "a boolean"
    case "Null":
      return own ?? "null"
    case "Objects":
      return own ?? "an object"
    case "Arrays":
      return own ?? "an array"
    default:
      return own
  }
}

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

/** Whether a union member's failure says more than "not this type" (it got inside the value). */
const explains = (i: SchemaIssue.Issue): boolean => {
  switch (i._tag) {
    case "InvalidType":
      return false
    case "AnyOf":
      return i.issues.some(explains)
    case "Encoding":
      return explains(i.issue)
    default:
      return true
  }
}

const collect = (i: SchemaIssue.Issue, path: Path, out: Array<Issue>): void => {
  switch (i._tag) {
    case "Pointer":
      collect(i.issue, [...path, ...i.path.map((s) => (typeof s === "number" ? s : String(s)))], out)
      return
    case "Composite": {
      // A node's failed checks: like a chain of refinements, the first failure is the one that
      // counts (an inner step failing means the outer ones never judged the value).
      const filters = i.issues.filter((x): x is SchemaIssue.Filter => x._tag === "Filter")
      const first = filters[0]
      if (first !== undefined) {
        if (first.issue._tag === "InvalidValue")
          out.push(issue(path, ruleOfFilter(first.filter, i.ast._tag === "Arrays"), i.ast))
        else collect(first.issue, path, out)
      }
      for (const inner of i.issues) if (inner._tag !== "Filter") collect(inner, path, out)
      return
    }
    case "AnyOf": {
      // A union: members that got past the value's type explain it best; when none did, the
      // union's own description (every allowed value) is the one issue.
      const deeper = i.issues.filter(explains)
      if (deeper.length > 0) {
        for (const inner of deeper) collect(inner, path, out)
        return
      }
      out.push(issue(path, ruleOfType(i.ast), i.ast))
      return
    }
    case "Filter":
      if (i.issue._tag === "InvalidValue") out.push({ path, rule: ruleOfFilter(i.filter, false) })
      else collect(i.issue, path, out)
      return
    case "Encoding":
      if (i.issue._tag === "InvalidValue") out.push(issue(path, ruleOfType(i.ast), i.ast))
      else collect(i.issue, path, out)
      return
    case "MissingKey":
      out.push({ path, rule: "required" })
      return
    case "UnexpectedKey":
      out.push({ path, rule: "unknownKey" })
      return
    case "Forbidden":
      out.push({ path, rule: "forbidden" })
      return
    case "OneOf":
      out.push(issue(path, "oneOf", i.ast))
      return
    case "InvalidType":
      out.push(issue(path, ruleOfType(i.ast), i.ast))
      return
    case "InvalidValue":
      out.push({ path, rule: "invalid" })
      return
  }
}

/**
 * The one mapping from a Schema decode failure to value-free issues, used by the domain's decoders,
 * the REST adapter and the MCP tools alike: each problem once, with the rule it broke and what was
 * expected (from the schema, never from the input).
 */
export const issuesOf = (error: Schema.SchemaError | SchemaIssue.Issue): ReadonlyArray<Issue> => {
  const out: Array<Issue> = []
  collect(Schema.isSchemaError(error) ? error.issue : error, [], out)
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
 * A strict decoder (unknown keys rejected, every issue reported) that fails with the error `invalid`
 * makes of the issues (each service names its own); `semantics` runs only on a value whose shape is
 * right and adds its own issues.
 */
export const strictDecoder = <A, E>(
  schema: Schema.Decoder<A>,
  invalid: (issues: ReadonlyArray<Issue>) => E,
  semantics: (value: A) => ReadonlyArray<Issue> = () => []
) => {
  const decode = Schema.decodeUnknownResult(schema)
  return (input: unknown): Result.Result<A, E> => {
    const shape = decode(input, STRICT_ALL)
    if (Result.isFailure(shape)) return Result.fail(invalid(issuesOf(shape.failure)))
    const issues = semantics(shape.success)
    return issues.length === 0 ? Result.succeed(shape.success) : Result.fail(invalid(issues))
  }
}
