/**
 * Running an operation for a resource or a prompt. Unlike tools, whose failures are results the
 * model reads, these fail as JSON-RPC errors: the protocol's answer to a bad URI or argument.
 */
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Either, Exit, Option, ParseResult, Schema } from "effect"
import { Operations, type OperationError, type OperationsApi } from "../../api/operations.js"
import type { RunOperation } from "./runtime.js"
import { contextFree } from "./tool.js"
import { errorTag, operationFailed } from "./tool-errors.js"

/** MCP's code for "resource not found". */
export const RESOURCE_NOT_FOUND = -32002

export const runOrThrow = async <A>(run: RunOperation, f: (operations: OperationsApi) => Effect.Effect<A, OperationError>): Promise<A> => {
  const exit = await run(Effect.flatMap(Operations, f))
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Cause.failureOption(exit.cause)
  if (Option.isNone(failure)) {
    console.error(`memledger mcp: ${Cause.pretty(exit.cause)}`)
    throw new McpError(ErrorCode.InternalError, "memledger failed unexpectedly; the server logged why")
  }
  throw new McpError(errorTag(failure.value) === "MemoryNotFound" ? RESOURCE_NOT_FOUND : ErrorCode.InvalidParams, operationFailed(failure.value))
}

export const decodeOrThrow = <A, I>(what: string, schema: Schema.Schema<A, I, unknown>, value: unknown): A => {
  const decoded = Schema.decodeUnknownEither(contextFree(schema))(value)
  if (Either.isRight(decoded)) return decoded.right
  throw new McpError(ErrorCode.InvalidParams, `invalid ${what}: ${ParseResult.ArrayFormatter.formatErrorSync(decoded.left).map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`)
}

