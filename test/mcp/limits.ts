/**
 * The limits each MCP tool holds its arguments to, as docs/mcp.md and the tools' descriptions
 * state them to agents, written out here rather than read from what the tools advertise: a limit
 * dropped from the source must fail the tests that use this table, not drop out of them.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js"
import type { ToolName } from "./support.js"

export interface Limits {
  readonly minLength?: number
  readonly maxLength?: number
  readonly minItems?: number
  readonly maxItems?: number
  readonly minimum?: number
  readonly maximum?: number
  readonly items?: Limits
}

const ID: Limits = { minLength: 6, maxLength: 26 }
const ORIGIN: Limits = { minLength: 1, maxLength: 500 }
const PROJECT: Limits = { minLength: 1, maxLength: 1_000 }
const TASK: Limits = { minLength: 1, maxLength: 500 }
const QUERY: Limits = { minLength: 1, maxLength: 10_000 }
const ALSO: Limits = { maxItems: 5, items: QUERY }
const LIMIT: Limits = { minimum: 1, maximum: 100 }

export const LIMITS: Record<ToolName, Record<string, Limits>> = {
  remember: {
    content: { maxLength: 10_000 },
    project: PROJECT,
    tags: { maxItems: 50, items: { minLength: 1, maxLength: 100 } },
    confirms: ID,
    supersedes: ID,
    distinct_from: ID,
    cues: { maxItems: 5, items: { minLength: 1, maxLength: 400 } },
    origin: ORIGIN
  },
  recall: { query: QUERY, also: ALSO, limit: LIMIT, project: PROJECT, task: TASK, origin: ORIGIN },
  explain: { query: QUERY, also: ALSO, limit: LIMIT, project: PROJECT, at: { minLength: 1, maxLength: 40 } },
  record_outcome: { memory_ids: { minItems: 1, maxItems: 100, items: ID }, task: TASK, note: { maxLength: 2_000 }, origin: ORIGIN },
  forget: { memory_id: ID, reason: { maxLength: 500 }, origin: ORIGIN },
  forget_conversation: { origin: ORIGIN },
  get_context: { project: PROJECT, query: QUERY, also: ALSO, budget: { minimum: 50, maximum: 100_000 }, task: TASK, origin: ORIGIN },
  get_memory: { id: ID },
  review: { accept: { maxItems: 20, items: ID }, reject: { maxItems: 20, items: ID }, project: PROJECT, limit: LIMIT, origin: ORIGIN },
  stats: {}
}

const KEYS = ["minLength", "maxLength", "minItems", "maxItems", "minimum", "maximum"] as const

/** The limits a JSON Schema states, in the table's shape: fields without any left out. */
export const advertisedLimits = (tool: Tool): Record<string, Limits> => {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>
  const entries = Object.entries(properties).map(([name, schema]) => [name, limitsOf(schema)] as const)
  return Object.fromEntries(entries.filter(([, limits]) => Object.keys(limits).length > 0))
}

const limitsOf = (schema: Record<string, unknown>): Limits => {
  const own = Object.fromEntries(KEYS.filter((key) => typeof schema[key] === "number").map((key) => [key, schema[key]]))
  const items = typeof schema["items"] === "object" && schema["items"] !== null ? limitsOf(schema["items"] as Record<string, unknown>) : {}
  return Object.keys(items).length > 0 ? { ...own, items } : own
}
