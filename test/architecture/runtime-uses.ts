// Finds what DESIGN.md keeps out of the domain besides imports: timers, background fibers,
// schedules, caches (Effect's and module-level maps), randomness and reads of the wall clock. Reads
// code, not comments.
import { readFileSync } from "node:fs"
import { join, relative } from "node:path"
import ts from "typescript"
import { sourceFiles } from "./import-graph.js"

export interface RuntimeUse {
  readonly file: string
  readonly line: number
  /** The name as written, e.g. `Effect.forkScoped` or `globalThis.crypto`. */
  readonly name: string
  readonly rule: string
}

const TIMER = "the domain sets no timers (a scheduler is an adapter)"
const FIBER = "the domain starts no background fibers and no schedules (a flush loop is an adapter)"
const CACHE = "the domain keeps no caches for speed (a cache decorates a port, in an adapter)"
const DECORATOR = "the domain decorates no port (a layer wrapping a port's own implementation is an adapter)"
const MODULE_MAP =
  "the domain keeps no map for the life of the process (a memo is an adapter of a port; a constant table is a ReadonlyMap)"
const RANDOM = "the domain draws no randomness itself (ids and bytes come from the IdGen port)"
const CLOCK = "the domain reads no wall clock (the time comes from Clock, or as an argument)"

/** Names banned wherever they appear as a value or an import binding. */
const BANNED_NAMES: ReadonlyMap<string, string> = new Map([
  ["setTimeout", TIMER],
  ["setInterval", TIMER],
  ["setImmediate", TIMER],
  ["queueMicrotask", TIMER],
  ["Fiber", FIBER],
  ["Schedule", FIBER],
  ["Cache", CACHE],
  ["ScopedCache", CACHE],
  ["crypto", RANDOM]
])

/** Members banned on a receiver (`Effect.fork*`, `Math.random`); `globalThis.x` is checked as `x`. */
const BANNED_MEMBERS: ReadonlyArray<{ readonly re: RegExp; readonly rule: string }> = [
  { re: /^Effect\.(fork\w*|daemon\w*|schedule\w*|repeat\w*|sleep)$/, rule: FIBER },
  { re: /^Math\.random$/, rule: RANDOM }
]

/** Module paths of the same things (`import * as Schedule from "effect/Schedule"`). */
const BANNED_MODULES = /^effect\/(Fiber|Schedule|Cache|ScopedCache)$/

/**
 * The tag a `Layer.*(Tag, build)` call both provides and reads back (`yield* Tag` in `build`): a
 * decorator of that port, the shape of a key cache or a buffered counter.
 */
const decoratedTag = (node: ts.CallExpression): string | undefined => {
  const [tag, build] = node.arguments
  if (!ts.isPropertyAccessExpression(node.expression) || build === undefined || tag === undefined)
    return undefined
  if (!ts.isIdentifier(node.expression.expression) || node.expression.expression.text !== "Layer")
    return undefined
  if (!ts.isIdentifier(tag)) return undefined
  const readsTag = (n: ts.Node): boolean =>
    (ts.isYieldExpression(n) &&
      n.asteriskToken !== undefined &&
      n.expression !== undefined &&
      ts.isIdentifier(n.expression) &&
      n.expression.text === tag.text) ||
    ts.forEachChild(n, readsTag) === true
  return readsTag(build) ? tag.text : undefined
}

const nameOf = (node: ts.PropertyAccessExpression): string | undefined =>
  ts.isIdentifier(node.expression) ? `${node.expression.text}.${node.name.text}` : undefined

/** Whether an identifier is a property or member name (`a.crypto`, `{ crypto: 1 }`), not a reference. */
const isMemberName = (node: ts.Identifier): boolean => {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent)) return parent.name === node
  if (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent))
    return parent.name === node
  if (ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) return parent.name === node
  return false
}

/** The function a node runs in, or undefined when it runs as the module loads (an instance field runs per object). */
const enclosingFunction = (node: ts.Node): ts.Node | undefined => {
  for (let n = node.parent; n !== undefined; n = n.parent) {
    if (ts.isFunctionLike(n)) return n
    if (ts.isPropertyDeclaration(n) && !n.modifiers?.some((m) => m.kind === ts.SyntaxKind.StaticKeyword))
      return n
  }
  return undefined
}

/** Top-level functions by name (`function f` or `const f = () =>`), to see which the module calls as it loads. */
const topLevelFunctions = (sf: ts.SourceFile): ReadonlyMap<ts.Node, string> => {
  const byNode = new Map<ts.Node, string>()
  for (const statement of sf.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name !== undefined)
      byNode.set(statement, statement.name.text)
    if (ts.isVariableStatement(statement))
      for (const d of statement.declarationList.declarations)
        if (ts.isIdentifier(d.name) && d.initializer !== undefined) {
          const init = ts.isParenthesizedExpression(d.initializer) ? d.initializer.expression : d.initializer
          if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) byNode.set(init, d.name.text)
        }
  }
  return byNode
}

/** Whether a function runs as the module loads: called by name from top-level code, or invoked in place there. */
const runsAtLoad = (fn: ts.Node, name: string | undefined, sf: ts.SourceFile): boolean => {
  let callee: ts.Node = fn
  while (ts.isParenthesizedExpression(callee.parent)) callee = callee.parent
  const call = callee.parent
  if (ts.isCallExpression(call) && call.expression === callee && enclosingFunction(call) === undefined)
    return true
  if (name === undefined) return false
  const calledAtLoad = (n: ts.Node): boolean =>
    (ts.isCallExpression(n) &&
      ts.isIdentifier(n.expression) &&
      n.expression.text === name &&
      enclosingFunction(n) === undefined) ||
    ts.forEachChild(n, calledAtLoad) === true
  return calledAtLoad(sf)
}

/** Declared as a ReadonlyMap: a constant table, which nothing can add to. */
const isReadonlyTable = (node: ts.NewExpression): boolean =>
  ts.isVariableDeclaration(node.parent) &&
  node.parent.type !== undefined &&
  ts.isTypeReferenceNode(node.parent.type) &&
  ts.isIdentifier(node.parent.type.typeName) &&
  node.parent.type.typeName.text === "ReadonlyMap"

/**
 * A `new Map`/`new WeakMap` that lives as long as the module: made as it loads, or in the body of a
 * function of the module that top-level code calls (a memo factory, an IIFE). A map made per call,
 * per object or per layer build is not one; calls into other modules are not followed.
 */
const isModuleMap = (node: ts.NewExpression, sf: ts.SourceFile, functions: ReadonlyMap<ts.Node, string>) => {
  if (!ts.isIdentifier(node.expression) || !["Map", "WeakMap"].includes(node.expression.text)) return false
  if (isReadonlyTable(node)) return false
  const fn = enclosingFunction(node)
  return fn === undefined || (ts.isFunctionLike(fn) && runsAtLoad(fn, functions.get(fn), sf))
}

/** `Date.now()` or `new Date()` with no argument (also through `globalThis`): the current time. */
const clockRead = (node: ts.Node, sf: ts.SourceFile): string | undefined => {
  const isDate = (e: ts.Expression) => /^(globalThis\.)?Date$/.test(e.getText(sf))
  if (ts.isNewExpression(node) && isDate(node.expression) && (node.arguments?.length ?? 0) === 0)
    return "new Date()"
  if (
    ts.isCallExpression(node) &&
    ts.isPropertyAccessExpression(node.expression) &&
    node.expression.name.text === "now" &&
    isDate(node.expression.expression)
  )
    return "Date.now()"
  return undefined
}

export const runtimeUsesOf = (file: string, source: string): ReadonlyArray<RuntimeUse> => {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true)
  const functions = topLevelFunctions(sf)
  const found: Array<RuntimeUse> = []
  const add = (node: ts.Node, name: string, rule: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, name, rule })
  const visit = (node: ts.Node): void => {
    if (ts.isNewExpression(node) && isModuleMap(node, sf, functions))
      add(node, `module-level new ${node.expression.getText(sf)}`, MODULE_MAP)
    const clock = clockRead(node, sf)
    if (clock !== undefined) add(node, clock, CLOCK)
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (BANNED_MODULES.test(node.moduleSpecifier.text)) add(node, node.moduleSpecifier.text, FIBER)
    } else if (ts.isCallExpression(node)) {
      const tag = decoratedTag(node)
      if (tag !== undefined) add(node, `Layer decorating ${tag}`, DECORATOR)
    } else if (ts.isPropertyAccessExpression(node)) {
      const name = nameOf(node)
      if (name !== undefined) {
        const global = /^globalThis\.(\w+)$/.exec(name)?.[1]
        const globalRule = global === undefined ? undefined : BANNED_NAMES.get(global)
        if (globalRule !== undefined) add(node, name, globalRule)
        const member = BANNED_MEMBERS.find((m) => m.re.test(name))
        if (member !== undefined) add(node, name, member.rule)
      }
    } else if (ts.isIdentifier(node) && !isMemberName(node)) {
      const rule = BANNED_NAMES.get(node.text)
      if (rule !== undefined) add(node, node.text, rule)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

/** Every runtime use in the sources under `dir`, with paths relative to `root`. */
export const runtimeUsesIn = (root: string, dir: string): ReadonlyArray<RuntimeUse> =>
  sourceFiles(join(root, dir)).flatMap((file) =>
    runtimeUsesOf(relative(root, file), readFileSync(file, "utf8"))
  )
