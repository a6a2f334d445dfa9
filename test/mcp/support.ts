/**
 * Real MCP clients for the tests: the SDK `Client` talking to `node bin/mem.js --db FILE mcp`
 * over stdio, plus the checks every tool result must pass (the advertised outputSchema, with
 * ajv, and the Effect output schema it was derived from).
 */
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js"
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js"
import { Ajv } from "ajv"
import { Either, Schema } from "effect"
import { afterAll, beforeAll } from "vitest"
import * as Out from "../../src/api/outputs.js"
import { MEM_BIN, tempDir } from "../support/cli.js"

export const TOOL_NAMES = ["remember", "recall", "explain", "record_outcome", "forget", "forget_conversation", "get_context", "get_memory", "review", "stats"] as const
export type ToolName = (typeof TOOL_NAMES)[number]

/** The Effect schema each tool's structuredContent must decode with. */
export const OUTPUT_SCHEMAS: Record<ToolName, Schema.Schema.AnyNoContext> = {
  remember: Out.RememberOutput,
  recall: Out.RecallOutput,
  explain: Out.ExplainOutput,
  record_outcome: Out.OutcomeOutput,
  forget: Out.ForgetOutput,
  forget_conversation: Out.ConversationOutput,
  get_context: Out.ContextOutput,
  get_memory: Out.MemoryOutput,
  review: Out.ReviewOutput,
  stats: Out.StatsOutput
}

export interface StdioClient {
  readonly client: Client
  readonly stderr: () => string
  readonly close: () => Promise<void>
}

/** `env` adds to the environment the server gets (MEMLEDGER_URL and MEMLEDGER_TOKEN make it a remote client). */
export const connectStdio = async (db: string, options: { name?: string; cwd?: string; env?: Record<string, string> } = {}): Promise<StdioClient> => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MEM_BIN, "--db", db, "mcp"],
    cwd: options.cwd ?? process.cwd(),
    // Only --db names the store; keyword search, whatever the developer's shell says.
    // The SDK passes on only a few variables of its own: the state folder is passed too, as an
    // agent's environment would have it, so the server and the hooks share one.
    env: { MEMLEDGER_DB: "", MEMLEDGER_EMBEDDER: "none", MEMLEDGER_STATE_DIR: process.env.MEMLEDGER_STATE_DIR ?? "", ...options.env },
    stderr: "pipe"
  })
  let stderr = ""
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
  const client = new Client({ name: options.name ?? "memledger-test", version: "1.0.0" })
  await client.connect(transport)
  return { client, stderr: () => stderr, close: () => client.close() }
}

/** A folder whose git remote makes it the project `github.com/acme/shop`. */
export const projectFolder = (remote = "git@github.com:acme/shop.git"): string => {
  const dir = tempDir("memledger-project-")
  mkdirSync(join(dir, ".git"))
  writeFileSync(join(dir, ".git", "config"), `[remote "origin"]\n\turl = ${remote}\n`)
  return dir
}

export const freshDb = (): string => join(tempDir(), "m.db")

const ajv = new Ajv({ allErrors: true, strict: true })

/** ajv's verdict on a value against a schema a tool advertises: null when it matches. */
export const schemaErrors = (schema: object, value: unknown): string | null => {
  const validate = ajv.compile(schema)
  return validate(value) ? null : ajv.errorsText(validate.errors)
}

/** Fails with ajv's and Effect's reasons when a result does not match what its tool advertises. */
export const checkResult = (tool: Tool, result: CallToolResult): Record<string, unknown> => {
  if (result.isError) throw new Error(`${tool.name} failed: ${textOf(result)}`)
  const structured = result.structuredContent
  if (structured === undefined) throw new Error(`${tool.name} returned no structuredContent`)
  const mismatch = schemaErrors(tool.outputSchema ?? {}, structured)
  if (mismatch !== null) throw new Error(`${tool.name}: structuredContent does not match outputSchema: ${mismatch}`)
  const decoded = Schema.decodeUnknownEither(OUTPUT_SCHEMAS[tool.name as ToolName], { onExcessProperty: "error" })(structured)
  if (Either.isLeft(decoded)) throw new Error(`${tool.name}: structuredContent does not decode: ${decoded.left.message}`)
  if (!result.content.some((c) => c.type === "text" && c.text.length > 0)) throw new Error(`${tool.name} returned no text content`)
  return structured
}

export const textOf = (result: CallToolResult): string => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n")

/** Calls a tool that must succeed, checks its result against its schemas, and returns it. */
export const callChecked = async (client: Client, tools: ReadonlyArray<Tool>, name: ToolName, args: Record<string, unknown> = {}) => {
  const tool = tools.find((t) => t.name === name)
  if (tool === undefined) throw new Error(`no tool ${name}`)
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult
  return checkResult(tool, result)
}

/** A call each tool takes, on a store holding the memory `id` from the conversation `test:known`. */
export const validCalls = (id: string): Record<ToolName, Record<string, unknown>> => ({
  remember: { content: "Cache keys include the lockfile hash" },
  recall: { query: "build" },
  explain: { query: "build" },
  record_outcome: { memory_ids: [id], outcome: "worked" },
  forget: { memory_id: id },
  forget_conversation: { origin: "test:known" },
  get_context: {},
  get_memory: { id },
  review: {},
  stats: {}
})

export const eventCount = async (client: Client): Promise<number> => {
  const result = (await client.callTool({ name: "stats", arguments: {} })) as CallToolResult
  return (result.structuredContent as { events: number }).events
}

/**
 * One `mem mcp` for a whole test file, over a fresh store: connected before its tests, closed
 * after. `client` and `tools` are known once the tests run; `call` is `callChecked` on them.
 */
export const serverForFile = (options: Parameters<typeof connectStdio>[1] = {}) => {
  let server: StdioClient | undefined
  let listed: Tool[] = []
  beforeAll(async () => {
    server = await connectStdio(freshDb(), options)
    listed = (await server.client.listTools()).tools
  })
  afterAll(() => server?.close())
  return {
    get client(): Client {
      return server!.client
    },
    get tools(): Tool[] {
      return listed
    },
    call: (name: ToolName, args: Record<string, unknown> = {}) => callChecked(server!.client, listed, name, args)
  }
}
