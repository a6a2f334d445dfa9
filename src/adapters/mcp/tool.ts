/**
 * One MCP tool: its advertised definition and its call, which is decode (the Effect input
 * schema) -> one `Operations` method -> encode (the Effect output schema). Every way a call can
 * go wrong ends as a tool result with `isError: true` and a message saying what to do; nothing
 * here throws, so a bad call can never take the server down.
 */
import type { CallToolResult, Tool, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Either, Exit, Option, Schema } from "effect"
import { nestsDeeperThan } from "../../api/json-depth.js"
import { Operations, type Caller, type OperationError, type OperationsApi } from "../../api/operations.js"
import { toolJsonSchema, type JsonObject } from "./json-schema.js"
import type { RunOperation } from "./runtime.js"
import { internalError, invalidArguments, nestedTooDeep, operationFailed } from "./tool-errors.js"

export interface ToolSpec<I, II, O, OI> {
  readonly name: string
  readonly title: string
  /** Written for the model: when to call it, and what comes back. */
  readonly description: string
  readonly annotations: ToolAnnotations
  readonly input: Schema.Schema<I, II, unknown>
  readonly output: Schema.Schema<O, OI, unknown>
  readonly operation: (operations: OperationsApi, input: I, caller: Caller) => Effect.Effect<O, OperationError>
  /** The text content beside `structuredContent`, for clients that show only text. */
  readonly text: (output: O) => string
}

export interface McpTool {
  readonly definition: Tool
  readonly call: (run: RunOperation, args: unknown, caller: Caller) => Promise<CallToolResult>
}

export const defineTool = <I, II, O, OI>(spec: ToolSpec<I, II, O, OI>): McpTool => {
  // Every problem at once, so the model can fix a call in one go. Unknown fields are refused by
  // the input schemas themselves (InputStruct in src/api/inputs.ts), as on every other surface.
  const decode = Schema.decodeUnknownEither(contextFree(spec.input), { errors: "all" })
  // Encoding keeps only the declared fields: structuredContent always matches outputSchema.
  const encode = Schema.encodeEither(contextFree(spec.output))
  const definition: Tool = {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: toolJsonSchema(spec.input) as Tool["inputSchema"],
    outputSchema: toolJsonSchema(spec.output) as NonNullable<Tool["outputSchema"]>,
    annotations: { title: spec.title, ...spec.annotations }
  }
  return {
    definition,
    call: async (run, args, caller) => {
      // Checked before decoding: the decoder and its error formatter recurse into the value, and
      // 5,000 nested objects would overflow the stack, failing the whole request instead of
      // answering with a result the model can read.
      if (nestsDeeperThan(args)) return errorResult(nestedTooDeep(spec.name))
      const input = decode(args ?? {})
      if (Either.isLeft(input)) return errorResult(invalidArguments(spec.name, input.left))
      const exit = await run(Effect.flatMap(Operations, (operations) => spec.operation(operations, input.right, caller)))
      if (Exit.isFailure(exit)) return errorResult(failureMessage(exit.cause))
      const encoded = encode(exit.value)
      if (Either.isLeft(encoded) || !isJsonObject(encoded.right)) {
        console.error(`memledger mcp: the ${spec.name} result does not match its output schema: ${Either.isLeft(encoded) ? encoded.left.message : "not an object"}`)
        return errorResult(internalError(`the ${spec.name} result does not match its schema`))
      }
      return { content: [{ type: "text", text: spec.text(exit.value) }], structuredContent: encoded.right }
    }
  }
}

/**
 * The wire schemas need no services, but the `described` helper in src/api/inputs.ts widens
 * their context to `unknown` (and their types to `any`); this restores what is true of them.
 */
export const contextFree = <A, I>(schema: Schema.Schema<A, I, unknown>): Schema.Schema<A, I, never> => schema as Schema.Schema<A, I, never>

export const errorResult = (message: string): CallToolResult => ({ content: [{ type: "text", text: message }], isError: true })

const failureMessage = (cause: Cause.Cause<unknown>): string => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) return operationFailed(failure.value)
  // A defect is a bug, not the caller's fault: the operator reads the details on stderr.
  console.error(`memledger mcp: ${Cause.pretty(cause)}`)
  return internalError(Cause.isInterruptedOnly(cause) ? "the call was interrupted" : "an internal error, logged by the server")
}

const isJsonObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value)
