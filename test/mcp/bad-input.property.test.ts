/**
 * Whatever an agent sends, the server answers with an `isError` result that says what was
 * wrong, keeps serving, and writes nothing. fast-check breaks a valid call to each tool in the
 * ways models do: wrong types, missing fields, huge strings, ids that match nothing, extra
 * fields. The mutations are derived from the inputSchema the tool advertises, so a field added
 * later is covered without touching this test; the lengths are the documented ones (limits.ts),
 * so a limit dropped from the source is still attacked.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { LIMITS } from "./limits.js"
import { callChecked, connectStdio, eventCount, freshDb, schemaErrors, textOf, TOOL_NAMES, validCalls, type StdioClient, type ToolName } from "./support.js"

interface PropertySchema {
  readonly type?: string
  readonly enum?: ReadonlyArray<unknown>
  readonly items?: PropertySchema
}

let server: StdioClient
let tools: Tool[]
let valid: Record<ToolName, Record<string, unknown>>

beforeAll(async () => {
  server = await connectStdio(freshDb())
  tools = (await server.client.listTools()).tools
  const stored = await callChecked(server.client, tools, "remember", { content: "The build uses esbuild with one bundle", origin: "test:known" })
  valid = validCalls(String(stored["id"]))
})
afterAll(() => server.close())

/** Ids of the right shape that no memory has: every stored id starts with 0 (minutes since 1970). */
const unknownId = fc.stringMatching(/^z[0-9a-hjkmnp-tv-z]{5,25}$/)
const ID_FIELDS = new Set(["id", "memory_id", "confirms", "supersedes", "distinct_from"])

/** A JSON value that is not of the schema's type (or, for an enum, not one of its values). */
const wrongType = (schema: PropertySchema): fc.Arbitrary<unknown> => {
  const all = {
    string: fc.string(),
    number: fc.double({ noNaN: true, noDefaultInfinity: true }),
    boolean: fc.boolean(),
    null: fc.constant(null),
    array: fc.array(fc.integer(), { maxLength: 3 }),
    object: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), fc.integer(), { maxKeys: 3 })
  }
  const type = schema.type
  if (schema.enum !== undefined) return fc.oneof(fc.string().filter((s) => !schema.enum!.includes(s)), all.number, all.null)
  const others = Object.entries(all)
    .filter(([name]) => !(name === type || (type === "integer" && name === "number")))
    .map(([, arbitrary]) => arbitrary)
  // An integer field also refuses a fraction.
  return type === "integer" ? fc.oneof(fc.double({ min: 0.1, max: 0.9 }), ...others) : fc.oneof(...others)
}

/** One way to break a valid call, as a function from the valid arguments to broken ones. */
const breakings = (tool: Tool): fc.Arbitrary<{ how: string; args: (valid: Record<string, unknown>) => Record<string, unknown> }> => {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, PropertySchema>
  const names = Object.keys(properties)
  const required = tool.inputSchema.required ?? []
  const options: fc.Arbitrary<{ how: string; args: (v: Record<string, unknown>) => Record<string, unknown> }>[] = [
    fc
      .tuple(fc.string({ minLength: 1, maxLength: 30 }), fc.jsonValue())
      .filter(([key]) => !names.includes(key) && key !== "__proto__")
      .map(([key, value]) => ({ how: `extra field ${JSON.stringify(key)}`, args: (v) => ({ ...v, [key]: value }) }))
  ]
  if (names.length > 0) {
    options.push(
      fc
        .constantFrom(...names)
        .chain((name) => wrongType(properties[name]!).map((value) => ({ how: `${name} = ${JSON.stringify(value)}`, args: (v: Record<string, unknown>) => ({ ...v, [name]: value }) })))
    )
  }
  if (required.length > 0) {
    options.push(fc.constantFrom(...required).map((name) => ({ how: `no ${name}`, args: (v) => Object.fromEntries(Object.entries(v).filter(([key]) => key !== name)) })))
  }
  const limits = LIMITS[tool.name as ToolName]
  const long = Object.keys(limits).filter((name) => limits[name]!.maxLength !== undefined)
  if (long.length > 0) {
    options.push(
      fc.tuple(fc.constantFrom(...long), fc.integer({ min: 1, max: 200_000 })).map(([name, extra]) => ({
        how: `${name} ${extra} characters too long`,
        args: (v) => ({ ...v, [name]: "x".repeat(limits[name]!.maxLength! + extra) })
      }))
    )
  }
  const ids = names.filter((name) => ID_FIELDS.has(name))
  if (ids.length > 0) options.push(fc.tuple(fc.constantFrom(...ids), unknownId).map(([name, id]) => ({ how: `${name} = unknown ${id}`, args: (v) => ({ ...v, [name]: id }) })))
  if (names.includes("memory_ids")) {
    options.push(unknownId.map((id) => ({ how: `memory_ids has unknown ${id}`, args: (v) => ({ ...v, memory_ids: [...(v["memory_ids"] as string[]), id] }) })))
    options.push(fc.constant({ how: "memory_ids empty", args: (v) => ({ ...v, memory_ids: [] }) }))
  }
  if (tool.name === "forget_conversation") {
    options.push(fc.string({ minLength: 1, maxLength: 40 }).map((s) => ({ how: "unknown origin", args: (v) => ({ ...v, origin: `no-such-conversation:${s}` }) })))
  }
  return fc.oneof(...options)
}

describe("bad arguments", () => {
  it.each(TOOL_NAMES)("%s: always an isError result that says what to do; the server keeps serving and writes nothing", async (name) => {
    const tool = tools.find((t) => t.name === name)!
    // The call being broken is valid to begin with, by the tool's own schema.
    expect(schemaErrors(tool.inputSchema, valid[name])).toBeNull()
    const before = await eventCount(server.client)
    await fc.assert(
      fc.asyncProperty(breakings(tool), async ({ how, args }) => {
        const result = (await server.client.callTool({ name, arguments: args(valid[name]) })) as CallToolResult
        expect(result.isError, `${name} with ${how.slice(0, 200)}`).toBe(true)
        expect(result.structuredContent).toBeUndefined()
        const text = textOf(result)
        expect(text.length).toBeGreaterThan(10)
        // A 200,000-character argument is not echoed back.
        expect(text.length).toBeLessThan(4000)
        expect(await eventCount(server.client)).toBe(before)
      }),
      { numRuns: 40 }
    )
    // The valid call still works afterwards (and is not itself what failed above).
    if (tool.annotations?.readOnlyHint === true) await callChecked(server.client, tools, name, valid[name])
  })
})
