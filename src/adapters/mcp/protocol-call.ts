/**
 * Running an operation for a resource or a prompt. Unlike tools, whose failures are results the
 * model reads, these fail as JSON-RPC errors: the protocol's answer to a bad URI or argument.
 * The code says whose fault it is: -32002 an unknown memory, -32602 a bad argument, -32603
 * anything the caller cannot fix by asking differently (a remote server that refuses the token
 * or cannot be reached, a store that cannot be read).
 */
import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Either, Exit, Option, ParseResult, Schema } from "effect"
import { Operations, type OperationError, type OperationsApi } from "../../api/operations.js"
import type { RunOperation } from "./runtime.js"
import { contextFree } from "./tool.js"
import { errorTag, operationFailed } from "./tool-errors.js"

/** MCP's code for "resource not found". */
export const RESOURCE_NOT_FOUND = -32002

/**
 * A JSON-RPC error as the SDK's Protocol sends it: its `code`, and its `message` as the wire
 * text. Not an `McpError`, whose message already begins "MCP error <code>: ", so the client,
 * which adds that prefix itself, showed it twice.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

/** Failures of what the caller asked for; every other tag is the server's or the connection's. */
const CALLER_MISTAKES = new Set(["InvalidId", "AmbiguousId", "InvalidInput", "InvalidContent", "UnknownCategory"])

const codeOf = (tag: string): number =>
  tag === "MemoryNotFound" ? RESOURCE_NOT_FOUND : CALLER_MISTAKES.has(tag) ? ErrorCode.InvalidParams : ErrorCode.InternalError

export const runOrThrow = async <A>(run: RunOperation, f: (operations: OperationsApi) => Effect.Effect<A, OperationError>): Promise<A> => {
  const exit = await run(Effect.flatMap(Operations, f))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) {
    console.error(`memledger mcp: ${Cause.pretty(exit.cause)}`)
    throw new ProtocolError(ErrorCode.InternalError, "memledger failed unexpectedly; the server logged why")
  }
  throw new ProtocolError(codeOf(errorTag(failure.value)), operationFailed(failure.value))
}

export const decodeOrThrow = <A, I>(what: string, schema: Schema.Schema<A, I, unknown>, value: unknown): A => {
  const decoded = Schema.decodeUnknownEither(contextFree(schema))(value)
  if (Either.isRight(decoded)) return decoded.right
  throw new ProtocolError(ErrorCode.InvalidParams, `invalid ${what}: ${ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`)
}

