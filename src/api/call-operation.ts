/**
 * One operation called by name with input as it came from outside (parsed options, an SDK
 * argument): decoded with the operation's schema first, so the CLI and the SDK refuse bad
 * input the same way in local and remote mode, and `Operations` only ever sees valid input.
 */
import { Effect, Either, type Schema } from "effect"
import { decodeInput } from "./decode-input.js"
import * as In from "./inputs.js"
import { PurgeInput, TasksInput } from "./console-wire.js"
import { Operations, type Caller, type OperationError, type OperationsApi } from "./operations.js"

export type OperationName = keyof OperationsApi
export type OperationInput<K extends OperationName> = Parameters<OperationsApi[K]>[0]
export type OperationOutput<K extends OperationName> = Effect.Effect.Success<ReturnType<OperationsApi[K]>>
/** Input not yet decoded: the operation's field names, any values (the schema checks them). */
export type RawInput<K extends OperationName> = { readonly [F in keyof OperationInput<K>]?: unknown }

/** Each operation's input schema: the same ones the MCP tools and the REST payloads use. */
export const OPERATION_INPUTS: { readonly [K in OperationName]: Schema.Schema<OperationInput<K>, any> } = {
  remember: In.RememberInput,
  recall: In.RecallInput,
  explain: In.ExplainInput,
  recordOutcome: In.RecordOutcomeInput,
  forget: In.ForgetInput,
  restore: In.ForgetInput,
  forgetConversation: In.ForgetConversationInput,
  getContext: In.GetContextInput,
  getMemory: In.MemoryIdInput,
  list: In.ListInput,
  review: In.ReviewInput,
  edit: In.EditInput,
  confirm: In.ConfirmInput,
  supersede: In.SupersedeInput,
  cues: In.MemoryIdInput,
  dropCue: In.DropCueInput,
  conversations: In.NoInput,
  log: In.LogInput,
  stats: In.NoInput,
  overview: In.NoInput,
  record: In.MemoryIdInput,
  tasks: TasksInput,
  purge: PurgeInput
}

export const callOperation = <K extends OperationName>(
  name: K,
  input: RawInput<K>,
  caller: Caller
): Effect.Effect<OperationOutput<K>, OperationError, Operations> =>
  Effect.flatMap(Operations, (operations) => {
    const decoded = decodeInput(OPERATION_INPUTS[name], input)
    if (Either.isLeft(decoded)) return Effect.fail(decoded.left)
    const run = operations[name] as (input: OperationInput<K>, caller: Caller) => Effect.Effect<OperationOutput<K>, OperationError>
    return run(decoded.right, caller)
  })
