/**
 * The `Operations` service: everything an agent, a script or a program can ask of memledger,
 * in wire types (inputs.ts, outputs.ts). MCP tools, REST endpoints, the SDK and the CLI in
 * remote mode all call it; `OperationsLocal` runs it over the store's services and
 * `OperationsRemote` over HTTP against `mem serve`, so every surface behaves the same either way.
 */
import { Context, type Effect } from "effect"
import type { DomainError } from "../domain/errors.js"
import type { Person } from "../domain/person.js"
import type { StoreError } from "../store/errors.js"
import type * as In from "./inputs.js"
import type * as Out from "./outputs.js"
import type * as Console from "./console-wire.js"

/**
 * Who is calling and where: the conversation and client a write is recorded under (unless the
 * call names its own origin), and the project that "the current project" means.
 */
export interface Caller {
  readonly origin: string
  readonly agent: string
  /** null: no current project (a server without one); memories default to global then. */
  readonly project: string | null
  /**
   * The task in progress where the caller works (Beads, Claude Code todos), when the surface
   * knows it: recall and get_context link what they show to it unless the call names a task.
   */
  readonly task?: string
  /**
   * The person whose token the call came through (`mem serve`'s people, docs/serve.md): what it
   * writes records the name as its author, and it sees the memories private to that name. Absent
   * without a token: the store's own command line, the hooks, a server without tokens.
   */
  readonly person?: Person
}

/**
 * What an operation can fail with: a domain error, or the store file's own (damaged, locked,
 * full, a log verify found broken) locally; remotely, the same error's tag and message as the
 * server sent them, or `ServiceUnavailable` when the server can't be reached. Every surface
 * needs only these two fields to report it.
 */
/** The reason a memory rejected in review is forgotten with. */
export const REJECTED_IN_REVIEW = "rejected in review"

export type OperationError = DomainError | StoreError | RemoteError

export class RemoteError {
  constructor(
    readonly _tag: string,
    readonly message: string
  ) {}
}

type Op<I, O> = (input: I, caller: Caller) => Effect.Effect<O, OperationError>

export interface OperationsApi {
  readonly remember: Op<In.RememberInput, Out.RememberOutput>
  readonly recall: Op<In.RecallInput, Out.RecallOutput>
  readonly explain: Op<In.ExplainInput, Out.ExplainOutput>
  readonly recordOutcome: Op<In.RecordOutcomeInput, Out.OutcomeOutput>
  readonly forget: Op<In.ForgetInput, Out.ForgetOutput>
  readonly restore: Op<In.ForgetInput, Out.ForgetOutput>
  readonly forgetConversation: Op<In.ForgetConversationInput, Out.ConversationOutput>
  readonly getContext: Op<In.GetContextInput, Out.ContextOutput>
  readonly getMemory: Op<In.MemoryIdInput, typeof Out.MemoryOutput.Type>
  readonly list: Op<In.ListInput, Out.MemoriesOutput>
  /** Confirms the accepted tentative memories, forgets the rejected ones, then lists those still tentative. */
  readonly review: Op<In.ReviewInput, Out.ReviewOutput>
  readonly edit: Op<In.EditInput, Out.EditOutput>
  readonly confirm: Op<In.ConfirmInput, Out.ConfirmOutput>
  readonly supersede: Op<In.SupersedeInput, Out.SupersedeOutput>
  /** A memory with its written and learned cues, learned ones with where and from what they were learned. */
  readonly cues: Op<In.MemoryIdInput, Out.CuesOutput>
  /** Drops a learned cue that finds its memory for the wrong need; it is not learned again. */
  readonly dropCue: Op<In.DropCueInput, Out.DropCueOutput>
  readonly conversations: Op<typeof In.NoInput.Type, Out.ConversationsOutput>
  readonly log: Op<In.LogInput, Out.LogOutput>
  readonly stats: Op<typeof In.NoInput.Type, Out.StatsOutput>
  /** What the console's first page shows: counts, outcomes per day, the gate, the chain. */
  readonly overview: Op<typeof In.NoInput.Type, Console.OverviewOutput>
  /** A memory's decayed record drawn over time, with the outcome events behind it. */
  readonly record: Op<In.MemoryIdInput, Console.RecordOutput>
  /** The tasks the log names, with what recalls showed under each and the outcomes given. */
  readonly tasks: Op<Console.TasksInput, Console.TasksOutput>
  /** Erases forgotten text from disk for good with `yes`; without it, says what would go. */
  readonly purge: Op<Console.PurgeInput, Console.PurgeOutput>
}

export class Operations extends Context.Tag("memledger/Operations")<Operations, OperationsApi>() {}

/** The answer to a remember that found near-duplicates: what to do next, in words an agent follows. */
export const RESOLVE_SIMILAR = "call remember again with confirms, supersedes or distinct_from"
