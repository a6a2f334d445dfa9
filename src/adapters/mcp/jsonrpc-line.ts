/**
 * One line of `mem mcp`'s input read as JSON-RPC 2.0 says, before the SDK sees it: a message
 * to pass on, or the error reply the line deserves. The SDK's stdio transport dropped a line
 * that was not JSON or not a message (no reply, which leaves a client waiting), and its request
 * handlers failed params a method cannot take with -32603 and zod's issues as JSON text. Here
 * they are -32700, -32600 and -32602 with a short message, and the id when one can be read (else
 * null, as the specification says).
 */
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  InitializeRequestSchema,
  JSONRPCMessageSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  PingRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCMessage
} from "@modelcontextprotocol/sdk/types.js"

export const PARSE_ERROR = -32700
export const INVALID_REQUEST = -32600
export const INVALID_PARAMS = -32602

/** A reply written as is: unlike the SDK's message types, its id may be null. */
export interface ErrorReply {
  readonly jsonrpc: "2.0"
  readonly id: string | number | null
  readonly error: { readonly code: number; readonly message: string }
}

export type LineReading = { readonly message: JSONRPCMessage } | { readonly reply: ErrorReply }

/**
 * The requests the server answers, by method: the server's handlers (server.ts) and the SDK's
 * own (initialize, ping). Their params are checked here, so that a mistake is -32602 in words.
 */
const REQUESTS: Record<string, { readonly safeParse: (value: unknown) => ZodLikeResult }> = {
  initialize: InitializeRequestSchema,
  ping: PingRequestSchema,
  "tools/list": ListToolsRequestSchema,
  "tools/call": CallToolRequestSchema,
  "resources/list": ListResourcesRequestSchema,
  "resources/templates/list": ListResourceTemplatesRequestSchema,
  "resources/read": ReadResourceRequestSchema,
  "prompts/list": ListPromptsRequestSchema,
  "prompts/get": GetPromptRequestSchema
}

export const readJsonRpcLine = (line: string): LineReading => {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    return errorReply(null, PARSE_ERROR, "Parse error: the line is not JSON (one JSON-RPC message per line)")
  }
  if (Array.isArray(value)) return errorReply(null, INVALID_REQUEST, "Invalid Request: batches (JSON arrays) are not part of MCP; send one message per line")
  if (typeof value !== "object" || value === null) return errorReply(null, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
  const id = idOf(value)
  if (!("jsonrpc" in value) || value.jsonrpc !== "2.0") return errorReply(id, INVALID_REQUEST, 'Invalid Request: "jsonrpc" must be "2.0"')
  const message = JSONRPCMessageSchema.safeParse(value)
  if (!message.success) {
    return errorReply(id, INVALID_REQUEST, "Invalid Request: not a request (method and id), a notification (method) or a response (result or error)")
  }
  const request = "method" in message.data && "id" in message.data ? REQUESTS[message.data.method] : undefined
  if (request !== undefined) {
    const checked = request.safeParse(message.data)
    if (!checked.success) return errorReply(id, INVALID_PARAMS, `Invalid params for ${(message.data as { method: string }).method}: ${issuesText(checked.error.issues)}`)
  }
  return { message: message.data }
}

/** The reply to a line of more than `limit` bytes, which is skipped unread. */
export const tooLongReply = (limit: number): ErrorReply =>
  errorReply(null, INVALID_REQUEST, `Invalid Request: a message is at most ${limit / (1024 * 1024)} MiB; this line is longer, and was skipped unread`).reply

const errorReply = (id: string | number | null, code: number, message: string): { reply: ErrorReply } => ({
  reply: { jsonrpc: "2.0", id, error: { code, message } }
})

/** The request's id, when it is one JSON-RPC allows (a string or a number). */
const idOf = (value: object): string | number | null =>
  "id" in value && (typeof value.id === "string" || typeof value.id === "number") ? value.id : null

interface ZodLikeIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}
type ZodLikeResult = { readonly success: true } | { readonly success: false; readonly error: { readonly issues: ReadonlyArray<ZodLikeIssue> } }

const MAX_ISSUES = 3
const MAX_ISSUE_LENGTH = 80

/** "name: missing (a string is expected); arguments: expected record, received array". */
const issuesText = (issues: ReadonlyArray<ZodLikeIssue>): string => {
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    // The params are what a caller writes; the path inside them is what it recognises.
    const path = issue.path.map(String).filter((part, i) => !(i === 0 && part === "params"))
    const message = issue.message.replace(/^Invalid input: /, "").replace(/^expected (\w+), received undefined$/, "missing (a $1 is expected)")
    const text = path.length === 0 ? message : `${path.join(".")}: ${message}`
    return text.length <= MAX_ISSUE_LENGTH ? text : `${text.slice(0, MAX_ISSUE_LENGTH)}…`
  })
  const more = issues.length > MAX_ISSUES ? [`${issues.length - MAX_ISSUES} more`] : []
  return [...lines, ...more].join("; ") || "the message does not match the method"
}
