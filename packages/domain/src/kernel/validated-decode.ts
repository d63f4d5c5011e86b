// Finishes the decoding of an input that already passed the JSON Schema exported from the same
// Effect schema: fills the decoding defaults and runs the checks JSON Schema cannot state exactly.
import { Result, Schema, SchemaAST } from "effect"
import { checksOf, representationOf } from "./schema-checks.js"

/** The input needs the full decoder: a check failed, or the schema has a step this cannot finish. */
const NEEDS_FULL_DECODE: unique symbol = Symbol.for("@folio/domain/NeedsFullDecode")
type Finish = (value: unknown) => unknown

// Checks the exported JSON Schema states exactly, given `u`-flagged patterns. String lengths are
// not among them: JSON Schema counts code points, Effect UTF-16 units, so those run again here.
const EXACT = new Set([
  "isPattern",
  "isInt",
  "isFinite",
  "isBetween",
  "isGreaterThan",
  "isGreaterThanOrEqualTo",
  "isLessThan",
  "isLessThanOrEqualTo"
])
const STRUCTURAL_LENGTH = new Set(["isMinLength", "isMaxLength"])

/** The checks of a node that must run again on a value JSON Schema already accepted. */
const residualChecks = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.Filter<unknown>> =>
  checksOf(ast).filter((check) => {
    const id = representationOf(check)?.id
    if (id === undefined) return true
    if (EXACT.has(id)) return false
    return !(STRUCTURAL_LENGTH.has(id) && ast._tag === "Arrays")
  })

const NO_OPTIONS: SchemaAST.ParseOptions = {}

/** Whether any node below `ast` (not `ast` itself) carries an encoding. */
const innerEncodings = (ast: SchemaAST.AST): boolean => {
  const children =
    ast._tag === "Objects"
      ? [...ast.propertySignatures.map((ps) => ps.type), ...ast.indexSignatures.map((is) => is.type)]
      : ast._tag === "Arrays"
        ? [...ast.elements, ...ast.rest]
        : ast._tag === "Union"
          ? ast.types
          : []
  return children.some((child) => child.encoding !== undefined || innerEncodings(child))
}

/**
 * Which member of a union the decoder would take for a value: the first whose encoded side accepts
 * it. A union of structs told apart by one literal key (a block's `type`) is read off that key.
 */
const memberPicker = (types: ReadonlyArray<SchemaAST.AST>): ((value: unknown) => number | undefined) => {
  const literalKeys = (ast: SchemaAST.AST): Map<PropertyKey, unknown> =>
    new Map(
      ast._tag === "Objects"
        ? ast.propertySignatures.flatMap((ps) =>
            ps.type._tag === "Literal" && ps.type.context?.isOptional !== true
              ? [[ps.name, ps.type.literal]]
              : []
          )
        : []
    )
  const keysOfEach = types.map(literalKeys)
  const first = keysOfEach[0]
  for (const key of first?.keys() ?? []) {
    const values = keysOfEach.map((keys) => keys.get(key))
    if (values.some((v) => v === undefined) || new Set(values).size !== values.length) continue
    const byValue = new Map(values.map((v, i) => [v, i]))
    return (value) =>
      typeof value === "object" && value !== null
        ? byValue.get((value as Record<PropertyKey, unknown>)[key])
        : undefined
  }
  const accepts = types.map((member) => Schema.is(Schema.make<Schema.Top>(SchemaAST.toEncoded(member))))
  return (value) => {
    const i = accepts.findIndex((is) => is(value))
    return i === -1 ? undefined : i
  }
}

/**
 * A function that takes an input the schema's exported JSON Schema accepted (with unknown keys
 * refused) and returns what the strict decoder would: defaults filled, unchanged parts shared with
 * the input, which is never mutated. It answers NEEDS_FULL_DECODE when a check JSON Schema cannot
 * state fails; and it is undefined for a schema with transformations other than decoding defaults
 * of struct keys, which only the full decoder can run.
 */
const compileValidatedDecode = (schema: Schema.Top): Finish | undefined => {
  let supported = true
  const compiled = new Map<SchemaAST.AST, Finish>()

  const defaultOf = (name: PropertyKey, type: SchemaAST.AST): (() => unknown) | undefined => {
    const links = type.encoding
    if (links === undefined) return undefined
    const encoded = links[links.length - 1]?.to
    if (encoded?.context?.isOptional !== true || type.context?.isOptional === true) {
      supported = false
      return undefined
    }
    // The default is what the schema decodes a missing key to; defaults here are constants.
    const single = Schema.make<Schema.Decoder<unknown>>(
      new SchemaAST.Objects([new SchemaAST.PropertySignature(name, type)], [])
    )
    const decoded = Schema.decodeUnknownSync(single)({}) as Record<PropertyKey, unknown>
    // Each decoded value gets its own copy, as the decoder builds one per call.
    const text = JSON.stringify(decoded[name])
    return () => JSON.parse(text)
  }

  const compile = (ast: SchemaAST.AST): Finish => {
    const known = compiled.get(ast)
    if (known !== undefined) return known
    let inner: Finish = (v) => v
    const finish: Finish = (v) => inner(v)
    compiled.set(ast, finish)
    if (ast.encoding !== undefined) supported = false
    const residual = residualChecks(ast)
    const checked = (body: Finish): Finish =>
      residual.length === 0
        ? body
        : (v) => {
            const out = body(v)
            if (out === NEEDS_FULL_DECODE) return out
            for (const check of residual)
              if (check.run(out, ast, NO_OPTIONS) !== undefined) return NEEDS_FULL_DECODE
            return out
          }
    switch (ast._tag) {
      case "Objects": {
        const fields = ast.propertySignatures.map((ps) => {
          const fallback = defaultOf(ps.name, ps.type)
          // A present value of a defaulted key decodes as the key's encoded schema does: the type
          // side of a default has its inner defaults stripped, the encoded side keeps them.
          const links = ps.type.encoding
          const encoded = fallback === undefined ? undefined : links?.[links.length - 1]?.to
          // withDecodingDefaultTypeKey keeps the inner schema on the encoded side; a default of
          // another make (inner encodings on the type side) is left to the full decoder.
          if (encoded !== undefined && innerEncodings(ps.type)) supported = false
          return { name: ps.name, fallback, finish: compile(encoded ?? ps.type) }
        })
        const index = ast.indexSignatures.map((is) => compile(is.type))
        const named = new Set(fields.map((f) => f.name))
        inner = checked((v) => {
          const record = v as Record<PropertyKey, unknown>
          let out: Record<PropertyKey, unknown> | undefined
          for (const f of fields) {
            const present = Object.hasOwn(record, f.name)
            if (!present) {
              if (f.fallback === undefined) continue
              out ??= { ...record }
              out[f.name] = f.fallback()
              continue
            }
            const before = record[f.name]
            const after = f.finish(before)
            if (after === NEEDS_FULL_DECODE) return after
            if (after !== before) {
              out ??= { ...record }
              out[f.name] = after
            }
          }
          if (index.length > 0) {
            for (const key of Object.keys(record)) {
              if (named.has(key)) continue
              for (const finishValue of index) {
                const before = record[key]
                const after = finishValue(before)
                if (after === NEEDS_FULL_DECODE) return after
                if (after !== before) {
                  out ??= { ...record }
                  out[key] = after
                }
              }
            }
          }
          return out ?? record
        })
        break
      }
      case "Arrays": {
        const elements = ast.elements.map((e) => compile(e))
        const rest = ast.rest.map((r) => compile(r))
        if (rest.length > 1) supported = false
        const restFinish = rest[0]
        inner = checked((v) => {
          const items = v as ReadonlyArray<unknown>
          let out: Array<unknown> | undefined
          for (let i = 0; i < items.length; i++) {
            const f = i < elements.length ? elements[i] : restFinish
            if (f === undefined) continue
            const before = items[i]
            const after = f(before)
            if (after === NEEDS_FULL_DECODE) return after
            if (after !== before) {
              out ??= [...items]
              out[i] = after
            }
          }
          return out ?? items
        })
        break
      }
      case "Union": {
        const members = ast.types.map((member) => ({ member, finish: compile(member) }))
        if (members.every(({ member }) => isTrivial(member))) {
          inner = checked((v) => v)
          break
        }
        const pick = memberPicker(ast.types)
        inner = checked((v) => {
          const i = pick(v)
          return i === undefined ? NEEDS_FULL_DECODE : (members[i]?.finish(v) ?? NEEDS_FULL_DECODE)
        })
        break
      }
      case "Suspend":
        inner = checked((v) => compile(ast.thunk())(v))
        break
      case "Declaration":
        supported = false
        break
      default:
        inner = checked((v) => v)
    }
    return finish
  }

  /** Whether values of a node come out as they went in (no defaults, no checks left to run). */
  const trivialCache = new Map<SchemaAST.AST, boolean>()
  const isTrivial = (ast: SchemaAST.AST): boolean => {
    const known = trivialCache.get(ast)
    if (known !== undefined) return known
    trivialCache.set(ast, false) // a cycle (Suspend) is not trivial
    const result =
      residualChecks(ast).length === 0 &&
      ast.encoding === undefined &&
      (ast._tag === "Objects"
        ? ast.propertySignatures.every((ps) => ps.type.encoding === undefined && isTrivial(ps.type)) &&
          ast.indexSignatures.every((is) => isTrivial(is.type))
        : ast._tag === "Arrays"
          ? [...ast.elements, ...ast.rest].every(isTrivial)
          : ast._tag === "Union"
            ? ast.types.every(isTrivial)
            : ast._tag !== "Suspend" && ast._tag !== "Declaration")
    trivialCache.set(ast, result)
    return result
  }

  const root = compile(schema.ast)
  return supported ? root : undefined
}

/**
 * A decoder with the strict decoder's results, faster on valid input: `conforms` (the schema's
 * exported JSON Schema, compiled by a validator such as Ajv) accepts the shape, then the rest is
 * finished here; anything else, and anything this cannot finish, takes `strict`, so every issue still
 * comes from the one strict decoder.
 */
export const acceleratedDecoder = <A, E>(
  schema: Schema.Top,
  strict: (input: unknown) => Result.Result<A, E>,
  semantics: (value: A) => boolean,
  conforms: (input: unknown) => boolean
): ((input: unknown) => Result.Result<A, E>) => {
  const finish = compileValidatedDecode(schema)
  if (finish === undefined) return strict
  return (input) => {
    if (conforms(input)) {
      const value = finish(input)
      if (value !== NEEDS_FULL_DECODE && semantics(value as A)) return Result.succeed(value as A)
    }
    return strict(input)
  }
}
