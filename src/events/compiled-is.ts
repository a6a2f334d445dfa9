/**
 * `Schema.is`, compiled: the same answer from a tree of plain closures built once from the
 * schema's AST, without the parser's interpreter, its Either per field and its issue objects.
 * The schema stays the only definition; its refinements' own filters are called as they are.
 * An import checks every payload and envelope it writes, and the interpreter was a sixth of a
 * line's JavaScript there (bench/ingest-parts).
 *
 * Only the shapes the event schemas use are compiled: strings, numbers, booleans, literals,
 * unions, refinements, structs without index signatures, arrays and non-empty arrays. For any
 * other schema `compileIs` answers `Schema.is` itself. A property test
 * (test/core/compiled-is.property.test.ts) pins the two together on every event schema.
 */
import { Option, Schema, SchemaAST as AST } from "effect"

type Check = (u: unknown) => boolean

/** A check equal to `Schema.is(schema)`. */
export const compileIs = <A, I, R>(schema: Schema.Schema<A, I, R>): ((u: unknown) => u is A) =>
  (compiledCheck(schema) ?? Schema.is(schema)) as (u: unknown) => u is A

/** The compiled check, or undefined when the schema holds a shape not compiled here. */
export const compiledCheck = <A, I, R>(schema: Schema.Schema<A, I, R>): ((u: unknown) => boolean) | undefined =>
  compile(AST.typeAST(schema.ast))

/** What `Schema.is` passes its refinements' filters. */
const OPTIONS: AST.ParseOptions = { exact: true }

/** Undefined when the AST holds a shape this compiler does not know. */
const compile = (ast: AST.AST): Check | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
      return (u) => typeof u === "string"
    case "NumberKeyword":
      return (u) => typeof u === "number"
    case "BooleanKeyword":
      return (u) => typeof u === "boolean"
    case "UndefinedKeyword":
      return (u) => u === undefined
    case "Literal": {
      const literal = ast.literal
      return (u) => u === literal
    }
    case "Union":
      return compileUnion(ast)
    case "Refinement": {
      const from = compile(ast.from)
      if (from === undefined) return undefined
      const refinement = ast
      return (u) => from(u) && Option.isNone(refinement.filter(u, OPTIONS, refinement))
    }
    case "TypeLiteral":
      return compileStruct(ast)
    case "TupleType":
      return compileArray(ast)
    default:
      return undefined
  }
}

const compileUnion = (ast: AST.Union): Check | undefined => {
  // A union of literals (the vocabulary's words) is one lookup.
  const literals = ast.types.filter(AST.isLiteral)
  if (literals.length === ast.types.length) {
    const words = new Set<unknown>(literals.map((t) => t.literal))
    return (u) => words.has(u)
  }
  const members: Check[] = []
  for (const type of ast.types) {
    const member = compile(type)
    if (member === undefined) return undefined
    members.push(member)
  }
  return (u) => members.some((member) => member(u))
}

const compileStruct = (ast: AST.TypeLiteral): Check | undefined => {
  if (ast.indexSignatures.length > 0) return undefined
  const names: string[] = []
  const optional: boolean[] = []
  const checks: Check[] = []
  for (const ps of ast.propertySignatures) {
    const check = compile(ps.type)
    if (check === undefined || typeof ps.name !== "string") return undefined
    names.push(ps.name)
    optional.push(ps.isOptional)
    checks.push(check)
  }
  const hasOwn = Object.prototype.hasOwnProperty
  return (u) => {
    // Schema's record test: an object, not null, not an array. Other keys are ignored.
    if (typeof u !== "object" || u === null || Array.isArray(u)) return false
    const record = u as Record<string, unknown>
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!
      if (!hasOwn.call(record, name)) {
        if (optional[i]) continue
        return false
      }
      if (!checks[i]!(record[name])) return false
    }
    return true
  }
}

/** `Schema.Array(X)` (no elements, rest X) and `Schema.NonEmptyArray(X)` (one element X, rest X). */
const compileArray = (ast: AST.TupleType): Check | undefined => {
  if (ast.rest.length !== 1 || ast.elements.length > 1 || ast.elements.some((e) => e.isOptional)) return undefined
  const item = compile(ast.rest[0]!.type)
  const head = ast.elements.length === 1 ? compile(ast.elements[0]!.type) : item
  if (item === undefined || head === undefined) return undefined
  const minLength = ast.elements.length
  return (u) => {
    if (!Array.isArray(u) || u.length < minLength) return false
    for (let i = 0; i < u.length; i++) if (!(i < minLength ? head : item)(u[i])) return false
    return true
  }
}
