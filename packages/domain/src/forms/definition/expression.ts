// The calculated_field expression language: arithmetic over answers, parsed into a tree and
// evaluated by the server (never `eval`). Grammar (whitespace between tokens is ignored):
//
//   expr    := term (("+" | "-") term)*
//   term    := unary (("*" | "/" | "%") unary)*
//   unary   := "-" unary | primary
//   primary := NUMBER | "{" BLOCK_ID "}" | NAME "(" expr ("," expr)* ")" | "(" expr ")"
//   NAME    := min | max | round | abs | floor | ceil
//
// A reference reads a number, rating or choice position (1-based) answer; an unanswered reference,
// a division by zero or a non-finite result makes the whole value null.

export type Expr =
  | { readonly _tag: "num"; readonly value: number }
  | { readonly _tag: "ref"; readonly blockId: string }
  | { readonly _tag: "neg"; readonly arg: Expr }
  | {
      readonly _tag: "bin"
      readonly op: "+" | "-" | "*" | "/" | "%"
      readonly left: Expr
      readonly right: Expr
    }
  | { readonly _tag: "call"; readonly name: FunctionName; readonly args: ReadonlyArray<Expr> }

const FUNCTIONS = ["min", "max", "round", "abs", "floor", "ceil"] as const
type FunctionName = (typeof FUNCTIONS)[number]
const ARITY: Record<FunctionName, [number, number]> = {
  min: [1, 50],
  max: [1, 50],
  round: [1, 2],
  abs: [1, 1],
  floor: [1, 1],
  ceil: [1, 1]
}
const MAX_DEPTH = 64

export class ExpressionError {
  readonly _tag = "ExpressionError"
  constructor(readonly rule: string) {}
}

export const parseExpression = (source: string): Expr | ExpressionError => {
  let pos = 0
  const skip = () => {
    while (pos < source.length && /\s/.test(source[pos] ?? "")) pos++
  }
  const peek = () => {
    skip()
    return source[pos]
  }
  const fail = (rule: string): never => {
    throw new ExpressionError(rule)
  }
  const expect = (ch: string) => {
    if (peek() !== ch) fail("syntax")
    pos++
  }
  const expr = (depth: number): Expr => {
    if (depth > MAX_DEPTH) fail("tooDeep")
    let left = term(depth)
    for (let c = peek(); c === "+" || c === "-"; c = peek()) {
      pos++
      left = { _tag: "bin", op: c, left, right: term(depth) }
    }
    return left
  }
  const term = (depth: number): Expr => {
    let left = unary(depth)
    for (let c = peek(); c === "*" || c === "/" || c === "%"; c = peek()) {
      pos++
      left = { _tag: "bin", op: c, left, right: unary(depth) }
    }
    return left
  }
  const unary = (depth: number): Expr => {
    if (peek() === "-") {
      pos++
      return { _tag: "neg", arg: unary(depth + 1) }
    }
    return primary(depth)
  }
  const primary = (depth: number): Expr => {
    const c = peek()
    if (c === "(") {
      pos++
      const inner = expr(depth + 1)
      expect(")")
      return inner
    }
    if (c === "{") {
      const m = /^\{(blk_[A-Za-z0-9_-]{8,})\}/.exec(source.slice(pos))
      if (m === null || m[1] === undefined) return fail("reference")
      pos += m[0].length
      return { _tag: "ref", blockId: m[1] }
    }
    const num = /^(\d+(\.\d+)?|\.\d+)([eE][+-]?\d+)?/.exec(source.slice(pos))
    if (num !== null) {
      pos += num[0].length
      return { _tag: "num", value: Number(num[0]) }
    }
    const name = /^[a-z]+/.exec(source.slice(pos))
    if (name !== null) {
      if (!(FUNCTIONS as ReadonlyArray<string>).includes(name[0])) return fail("unknownFunction")
      pos += name[0].length
      expect("(")
      const args = [expr(depth + 1)]
      while (peek() === ",") {
        pos++
        args.push(expr(depth + 1))
      }
      expect(")")
      const fn = name[0] as FunctionName
      const [lo, hi] = ARITY[fn]
      if (args.length < lo || args.length > hi) fail("arity")
      return { _tag: "call", name: fn, args }
    }
    return fail("syntax")
  }
  try {
    if (source.trim() === "") return new ExpressionError("empty")
    const tree = expr(0)
    if (peek() !== undefined) fail("syntax")
    return tree
  } catch (error) {
    if (error instanceof ExpressionError) return error
    throw error
  }
}

export const referencesOf = (e: Expr): ReadonlyArray<string> => {
  switch (e._tag) {
    case "num":
      return []
    case "ref":
      return [e.blockId]
    case "neg":
      return referencesOf(e.arg)
    case "bin":
      return [...referencesOf(e.left), ...referencesOf(e.right)]
    case "call":
      return e.args.flatMap(referencesOf)
  }
}

/** Evaluates with `lookup` giving each referenced block's numeric value (undefined when missing). */
export const evaluateExpression = (
  e: Expr,
  lookup: (blockId: string) => number | undefined
): number | null => {
  const go = (x: Expr): number | null => {
    switch (x._tag) {
      case "num":
        return x.value
      case "ref":
        return lookup(x.blockId) ?? null
      case "neg": {
        const v = go(x.arg)
        return v === null ? null : -v
      }
      case "bin": {
        const a = go(x.left)
        const b = go(x.right)
        if (a === null || b === null) return null
        if ((x.op === "/" || x.op === "%") && b === 0) return null
        return x.op === "+"
          ? a + b
          : x.op === "-"
            ? a - b
            : x.op === "*"
              ? a * b
              : x.op === "/"
                ? a / b
                : a % b
      }
      case "call": {
        const args = x.args.map(go)
        if (args.some((v) => v === null)) return null
        const [first = 0, second = 0] = args as Array<number>
        switch (x.name) {
          case "min":
            return Math.min(...(args as Array<number>))
          case "max":
            return Math.max(...(args as Array<number>))
          case "abs":
            return Math.abs(first)
          case "floor":
            return Math.floor(first)
          case "ceil":
            return Math.ceil(first)
          case "round": {
            const digits = Math.max(0, Math.min(10, Math.trunc(second)))
            const f = 10 ** digits
            return Math.round(first * f) / f
          }
        }
      }
    }
  }
  const result = go(e)
  return result === null || !Number.isFinite(result) ? null : result
}
