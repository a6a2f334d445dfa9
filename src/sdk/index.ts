/**
 * The memledger SDK: `import { MemoryClient } from "memledger"`. Inputs and results are the
 * wire types of the MCP tools and the REST API (src/api/inputs.ts, outputs.ts).
 */
export { MemoryClient, type CallerOptions, type LocalOptions, type RemoteOptions } from "./memory-client.js"
export { MemledgerError } from "./memledger-error.js"
export type {
  ConfirmInput,
  DropCueInput,
  EditInput,
  ExplainInput,
  ForgetConversationInput,
  ForgetInput,
  GetContextInput,
  ListInput,
  LogInput,
  MemoryIdInput,
  RecallInput,
  RecordOutcomeInput,
  RememberInput,
  SupersedeInput
} from "../api/inputs.js"
export type {
  ConfirmOutput,
  ContextOutput,
  ConversationOutput,
  ConversationsOutput,
  Cue,
  CuesOutput,
  DropCueOutput,
  EditOutput,
  ExplainOutput,
  ForgetOutput,
  LogOutput,
  MemoriesOutput,
  OutcomeOutput,
  RecallOutput,
  RememberOutput,
  StatsOutput,
  SupersedeOutput
} from "../api/outputs.js"
export type { Memory, MemoryRecord } from "../api/memory-wire.js"
export type { Category, Outcome, Scope, Source } from "../domain/vocabulary.js"
