// What an Effect schema node checks, read off its AST: the checks in the order they run, and which
// built-in check each one is, for the issue mapper and the accelerated decoder alike.
import type { SchemaAST } from "effect"

/** The checks of a node, flattened out of filter groups, in the order they run. */
export const checksOf = (ast: SchemaAST.AST): ReadonlyArray<SchemaAST.Filter<unknown>> => {
  const out: Array<SchemaAST.Filter<unknown>> = []
  const walk = (c: SchemaAST.Check<unknown>) => {
    if (c._tag === "FilterGroup") for (const inner of c.checks) walk(inner)
    else out.push(c)
  }
  for (const c of ast.checks ?? []) walk(c)
  return out
}

/** The built-in check a filter is (`effect/schema/isBetween` -> `isBetween`) and its parameters. */
export const representationOf = (
  filter: SchemaAST.Check<unknown>
): { readonly id: string; readonly payload: Record<string, unknown> } | undefined => {
  const r = filter.annotations?.representation as { id?: unknown; payload?: unknown } | undefined
  if (r === undefined || typeof r.id !== "string") return undefined
  const payload = typeof r.payload === "object" && r.payload !== null ? r.payload : {}
  return { id: r.id.replace(/^effect\/schema\//, ""), payload: payload as Record<string, unknown> }
}
