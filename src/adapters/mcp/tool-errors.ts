/**
 * What an agent reads when a call fails: what was wrong and what to do next. Bad arguments and
 * domain failures are tool results with `isError: true`, never protocol errors, so the model
 * sees the message and can correct itself (the MCP spec's advice for tool failures).
 */
import { ParseResult } from "effect"
import { TOO_DEEP_MESSAGE } from "../../api/json-depth.js"

/** Each line of a message is capped: an invalid 1 MB string must not come back 1 MB long. */
const MAX_ISSUE_LENGTH = 300
const MAX_ISSUES = 8

export const invalidArguments = (tool: string, error: ParseResult.ParseError): string => {
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const lines = issues.slice(0, MAX_ISSUES).map((issue) => {
    const where = issue.path.length === 0 ? "arguments" : issue.path.map(String).join(".")
    return `${where}: ${clip(describeIssue(issue))}`
  })
  const more = issues.length > MAX_ISSUES ? [`(${issues.length - MAX_ISSUES} more problems)`] : []
  return [`invalid arguments for ${tool}:`, ...lines, ...more, `The ${tool} tool's inputSchema lists the fields it takes.`].join("\n")
}

export const nestedTooDeep = (tool: string): string =>
  `invalid arguments for ${tool}: ${TOO_DEEP_MESSAGE}. The ${tool} tool's inputSchema lists the fields it takes and their types.`

/** The failure of an operation (a domain error, or a remote one by tag), with a next step for an agent. */
export const operationFailed = (error: unknown): string => {
  const { tag, message } = describe(error)
  const hint = NEXT_STEP[tag]
  return hint === undefined ? message : `${message}; ${hint}`
}

export const errorTag = (error: unknown): string => describe(error).tag

export const unknownTool = (name: string, known: ReadonlyArray<string>): string =>
  `there is no tool named '${clip(name)}'; the tools are ${known.join(", ")}`

/** A bug, not the caller's fault; the details go to the server's stderr, not to the model. */
export const internalError = (detail: string): string => `memledger failed unexpectedly (${clip(detail)}); tell the user, who can read the server's log`

const NEXT_STEP: Record<string, string> = {
  MemoryNotFound: "call recall to find ids (every result carries its id)",
  InvalidId: "use an id from recall, remember or get_memory: 26 characters, or a unique prefix of 6 or more",
  ConversationNotFound: "a conversation is named by the origin field of a memory (see recall or get_memory)",
  ServiceUnavailable: "the memledger server is not reachable; try again later"
}

/**
 * Excess fields read better as "not a field of this tool" than as Effect's "is unexpected"
 * (or "Expected never", from a tool that takes no arguments at all).
 */
const describeIssue = (issue: ParseResult.ArrayFormatterIssue): string =>
  issue._tag === "Unexpected" || issue.message.startsWith("Expected never") ? "is not a field of this tool" : issue.message

const describe = (error: unknown): { tag: string; message: string } => {
  if (typeof error === "object" && error !== null) {
    const tag = "_tag" in error && typeof error._tag === "string" ? error._tag : "Error"
    const message = "message" in error && typeof error.message === "string" ? error.message : String(error)
    return { tag, message }
  }
  return { tag: "Error", message: String(error) }
}

const clip = (text: string): string => (text.length <= MAX_ISSUE_LENGTH ? text : `${text.slice(0, MAX_ISSUE_LENGTH)}… (${text.length} characters)`)
