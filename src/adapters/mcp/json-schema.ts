/**
 * The JSON Schema a tool advertises, derived from its Effect Schema: one schema rules, so the
 * advertised shape and the decoder cannot drift. MCP clients want a self-contained object
 * schema: `type: "object"` at the root (the SDK's client refuses a tool list without it), no
 * `$ref` into `$defs` (several clients do not resolve them), and no `$schema` pointing at
 * draft-07 (MCP's default dialect is 2020-12; a validator set up for it rejects the pointer).
 */
import { JSONSchema, type Schema } from "effect"

export type JsonObject = { [key: string]: unknown }

export const toolJsonSchema = <A, I, R>(schema: Schema.Schema<A, I, R>): JsonObject => {
  const made: unknown = JSONSchema.make(schema)
  if (!isObject(made)) throw new Error("JSONSchema.make returned a boolean schema")
  const { $schema: _dialect, $defs, ...root } = made
  const inlined = inline(root, isObject($defs) ? $defs : {}, new Set()) as JsonObject
  // A union of object shapes (remember's three replies) has no `type` at the root; every
  // branch is an object, so saying so is true and makes the schema acceptable to clients.
  return inlined["type"] === undefined ? { type: "object", ...inlined } : inlined
}

/**
 * Replaces each `{"$ref": "#/$defs/X", ...siblings}` by X's schema merged with the siblings
 * (the siblings are the refinement's own constraints and description, so they win). Drops the
 * titles Effect invents for refinements (`maxLength(26)`, `int`): they name the check, not the field.
 */
const inline = (node: unknown, defs: JsonObject, resolving: ReadonlySet<string>): unknown => {
  if (Array.isArray(node)) return node.map((item) => inline(item, defs, resolving))
  if (!isObject(node)) return node
  const { $ref, ...rest } = node
  const base = typeof $ref === "string" ? resolveRef($ref, defs, resolving) : {}
  const merged: JsonObject = { ...base }
  for (const [key, value] of Object.entries(rest)) merged[key] = inline(value, defs, resolving)
  if (typeof merged["title"] === "string" && isGeneratedTitle(merged["title"])) delete merged["title"]
  return merged
}

const resolveRef = (ref: string, defs: JsonObject, resolving: ReadonlySet<string>): JsonObject => {
  const name = decodeURIComponent(ref.replace(/^#\/\$defs\//, ""))
  const target = defs[name]
  // A recursive schema cannot be inlined; none of the wire schemas is one, so this is a bug.
  if (!isObject(target) || resolving.has(name)) throw new Error(`cannot inline the JSON Schema reference ${ref}`)
  return inline(target, defs, new Set([...resolving, name])) as JsonObject
}

const GENERATED_TITLE = /^(int|[a-zA-Z]+\(.*\)|nonNegative|positive|negative|nonPositive|finite)$/

const isGeneratedTitle = (title: string): boolean => GENERATED_TITLE.test(title)

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)
