/**
 * Every MCP tool advertises the limits docs/mcp.md states (limits.ts holds them as fixed
 * values), refuses a value one past any of them with an isError result that writes nothing,
 * and takes a value at each count and range limit and at each text's length limit.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { advertisedLimits, LIMITS, type Limits } from "./limits.js"
import { callChecked, connectStdio, eventCount, freshDb, textOf, TOOL_NAMES, validCalls, type StdioClient, type ToolName } from "./support.js"

let server: StdioClient
let tools: Tool[]
let id = ""

beforeAll(async () => {
  server = await connectStdio(freshDb())
  tools = (await server.client.listTools()).tools
  id = String((await callChecked(server.client, tools, "remember", { content: "The build uses esbuild with one bundle", origin: "test:known" }))["id"])
})
afterAll(() => server.close())

const text = (length: number) => "x".repeat(length)
/** `count` items, distinct, each of `length` characters; memory ids are the stored one's (known once it is stored). */
const list = (field: string, count: number, length = 1) => () =>
  Array.from({ length: count }, (_, i) => (ID_LISTS.has(field) ? id : `${i}`.padEnd(length, "x")))

/**
 * Fields that list memories, filled with the stored one's id: review's accept and reject run
 * last, and rejecting forgets it, which no later case minds.
 */
const ID_LISTS = new Set(["memory_ids", "accept", "reject"])

interface Case {
  readonly tool: ToolName
  readonly field: string
  readonly how: string
  readonly value: unknown | (() => unknown)
}

/** One value just past each of a field's limits. */
const pastLimits = (tool: ToolName, field: string, l: Limits): Case[] => [
  ...(l.maxLength === undefined ? [] : [{ how: `${l.maxLength + 1} characters`, value: text(l.maxLength + 1) }]),
  ...(l.minLength ? [{ how: `${l.minLength - 1} characters`, value: text(l.minLength - 1) }] : []),
  ...(l.maxItems === undefined ? [] : [{ how: `${l.maxItems + 1} items`, value: list(field, l.maxItems + 1) }]),
  ...(l.minItems ? [{ how: `${l.minItems - 1} items`, value: list(field, l.minItems - 1) }] : []),
  ...(l.items?.maxLength === undefined ? [] : [{ how: `an item of ${l.items.maxLength + 1} characters`, value: [text(l.items.maxLength + 1)] }]),
  ...(l.items?.minLength ? [{ how: `an item of ${l.items.minLength - 1} characters`, value: [text(l.items.minLength - 1)] }] : []),
  ...(l.minimum === undefined ? [] : [{ how: `${l.minimum - 1}`, value: l.minimum - 1 }]),
  ...(l.maximum === undefined ? [] : [{ how: `${l.maximum + 1}`, value: l.maximum + 1 }])
].map((c) => ({ tool, field, ...c }))

/** Free text, where any characters up to the limit are a valid value (an id or a time is not). */
const FREE_TEXT = new Set(["content", "query"])

/** A value at each limit a field can be filled to with any characters. */
const atLimits = (tool: ToolName, field: string, l: Limits): Case[] => [
  ...(l.maxLength !== undefined && FREE_TEXT.has(field) ? [{ how: `${l.maxLength} characters`, value: text(l.maxLength) }] : []),
  ...(l.maxItems === undefined ? [] : [{ how: `${l.maxItems} items of ${l.items?.maxLength ?? "any"} characters`, value: list(field, l.maxItems, l.items?.maxLength) }]),
  ...(l.minItems === undefined ? [] : [{ how: `${l.minItems} items`, value: list(field, l.minItems) }]),
  ...(l.minimum === undefined ? [] : [{ how: `${l.minimum}`, value: l.minimum }]),
  ...(l.maximum === undefined ? [] : [{ how: `${l.maximum}`, value: l.maximum }])
].map((c) => ({ tool, field, ...c }))

const cases = (make: (tool: ToolName, field: string, l: Limits) => Case[]) =>
  TOOL_NAMES.flatMap((tool) => Object.entries(LIMITS[tool]).flatMap(([field, limits]) => make(tool, field, limits)))

const call = async ({ tool, field, value }: Case) => {
  const args = { ...validCalls(id)[tool], [field]: typeof value === "function" ? value() : value }
  return (await server.client.callTool({ name: tool, arguments: args })) as CallToolResult
}

describe("the limits of the tools' arguments", () => {
  it.each(TOOL_NAMES)("%s advertises exactly the documented limits", (name) => {
    expect(advertisedLimits(tools.find((t) => t.name === name)!)).toEqual(LIMITS[name])
  })

  it.each(cases(pastLimits).map((c) => [`${c.tool} ${c.field}: ${c.how}`, c] as const))("refuses %s, and writes nothing", async (_, c) => {
    const before = await eventCount(server.client)
    const result = await call(c)
    expect(result.isError).toBe(true)
    expect(textOf(result)).toContain(`invalid arguments for ${c.tool}`)
    expect(textOf(result)).toMatch(new RegExp(`^${c.field}(\\.\\d+)?: `, "m"))
    expect(await eventCount(server.client)).toBe(before)
  })

  it.each(cases(atLimits).map((c) => [`${c.tool} ${c.field}: ${c.how}`, c] as const))("takes %s", async (_, c) => {
    const result = await call(c)
    expect(result.isError, textOf(result)).toBeFalsy()
  })
})
