/**
 * `MemoryClient`: memledger from TypeScript or JavaScript, with Promises. The same operations
 * as the MCP tools and the REST API, in-process over a store file (`MemoryClient.local`) or
 * against `mem serve` (`MemoryClient.remote`). Both run the very same `Operations`; inputs are
 * checked with the operations' schemas before anything runs, and every failure rejects with a
 * `MemledgerError` carrying the tag the other surfaces report.
 */
import { Exit, ManagedRuntime, type Layer } from "effect"
import { callOperation, type OperationInput, type OperationName, type OperationOutput } from "../api/call-operation.js"
import type * as In from "../api/inputs.js"
import type { Caller, Operations } from "../api/operations.js"
import { OperationsRemote } from "../api/operations-remote.js"
import type { Memory } from "../api/memory-wire.js"
import type * as Out from "../api/outputs.js"
import type * as Console from "../api/console-wire.js"
import { LocalOperationsLayer } from "../services/app.js"
import { defaultDbPath } from "../services/app.js"
import { MemledgerError, fromCause } from "./memledger-error.js"

/** Who the client writes as, and which project "the current project" means. */
export interface CallerOptions {
  /** The conversation writes are recorded under (default "sdk"); a call's own `origin` wins. */
  readonly origin?: string
  /** The client writing (default "sdk"). */
  readonly agent?: string
  /** The current project, e.g. github.com/acme/app; without one, memories default to global. */
  readonly project?: string | null
}

export interface LocalOptions extends CallerOptions {
  /** The store file (default: MEMLEDGER_DB, else ~/.memledger/memledger.db); created if missing. */
  readonly db?: string
}

export interface RemoteOptions extends CallerOptions {
  /** Where `mem serve` listens, e.g. http://127.0.0.1:7077. */
  readonly url: string
  /** The server's bearer token, if it requires one. */
  readonly token?: string
  /** A call unanswered this long rejects with ServiceUnavailable (default 30000). */
  readonly timeoutMs?: number
}

export class MemoryClient implements AsyncDisposable {
  readonly #runtime: ManagedRuntime.ManagedRuntime<Operations, { readonly _tag: string; readonly message: string }>
  readonly #caller: Caller
  #closed = false

  private constructor(layer: Layer.Layer<Operations, { readonly _tag: string; readonly message: string }>, options: CallerOptions) {
    // Nothing opens until the first call; a store or server that can't be used rejects that call.
    this.#runtime = ManagedRuntime.make(layer)
    this.#caller = { origin: options.origin ?? "sdk", agent: options.agent ?? "sdk", project: options.project ?? null }
  }

  /** A client over a store file in this process. Several processes may share one file. */
  static local(options: LocalOptions = {}): MemoryClient {
    return new MemoryClient(LocalOperationsLayer(options.db ?? defaultDbPath()), options)
  }

  /** A client of `mem serve` at `url`. */
  static remote(options: RemoteOptions): MemoryClient {
    return new MemoryClient(OperationsRemote({ url: options.url, token: options.token, timeoutMs: options.timeoutMs }), options)
  }

  /** Store a memory; an exact restatement confirms it, a near-duplicate is returned instead of stored. */
  remember = (input: In.RememberInput): Promise<Out.RememberOutput> => this.#call("remember", input)
  /** The memories that answer a query, best first, each with its record. */
  recall = (input: In.RecallInput): Promise<Out.RecallOutput> => this.#call("recall", input)
  /** The same ranking explained: every score term, the events behind it, what was left out and why. */
  explain = (input: In.ExplainInput): Promise<Out.ExplainOutput> => this.#call("explain", input)
  /** Say whether the memories you used worked. */
  recordOutcome = (input: In.RecordOutcomeInput): Promise<Out.OutcomeOutput> => this.#call("recordOutcome", input)
  forget = (input: In.ForgetInput): Promise<Out.ForgetOutput> => this.#call("forget", input)
  restore = (input: In.ForgetInput): Promise<Out.ForgetOutput> => this.#call("restore", input)
  /** Forget (or with `undo`, bring back) everything one conversation contributed. */
  forgetConversation = (input: In.ForgetConversationInput): Promise<Out.ConversationOutput> => this.#call("forgetConversation", input)
  /** What an agent should see at session start, within a token budget. */
  getContext = (input: In.GetContextInput = {}): Promise<Out.ContextOutput> => this.#call("getContext", input)
  getMemory = (input: In.MemoryIdInput): Promise<Memory> => this.#call("getMemory", input)
  list = (input: In.ListInput = {}): Promise<Out.MemoriesOutput> => this.#call("list", input)
  /** Confirm the accepted tentative memories, forget the rejected ones, and list those still tentative. */
  review = (input: In.ReviewInput = {}): Promise<Out.ReviewOutput> => this.#call("review", input)
  edit = (input: In.EditInput): Promise<Out.EditOutput> => this.#call("edit", input)
  confirm = (input: In.ConfirmInput): Promise<Out.ConfirmOutput> => this.#call("confirm", input)
  supersede = (input: In.SupersedeInput): Promise<Out.SupersedeOutput> => this.#call("supersede", input)
  /** A memory with its cues: the written ones, and the learned ones with the conversation and outcome that taught each. */
  cues = (input: In.MemoryIdInput): Promise<Out.CuesOutput> => this.#call("cues", input)
  /** Drop a learned cue that finds the memory for the wrong need; it is not learned again. */
  dropCue = (input: In.DropCueInput): Promise<Out.DropCueOutput> => this.#call("dropCue", input)
  conversations = (): Promise<Out.ConversationsOutput> => this.#call("conversations", {})
  /** A page of the event log; pass the answer's `next` as `after` for the following page. */
  log = (input: In.LogInput = {}): Promise<Out.LogOutput> => this.#call("log", input)
  stats = (): Promise<Out.StatsOutput> => this.#call("stats", {})
  /** What the console's first page shows: counts, outcomes per day, the failure gate, the chain. */
  overview = (): Promise<Console.OverviewOutput> => this.#call("overview", {})
  /** A memory's decayed record over time, with the outcome events behind it. */
  record = (input: In.MemoryIdInput): Promise<Console.RecordOutput> => this.#call("record", input)
  /** The tasks the log names, with what was recalled under each and the outcomes given. */
  tasks = (input: Console.TasksInput = {}): Promise<Console.TasksOutput> => this.#call("tasks", input)
  /** Erase forgotten text for good with `yes: true`; without it, what would go. */
  purge = (input: Console.PurgeInput = {}): Promise<Console.PurgeOutput> => this.#call("purge", input)

  /** Closes the store (local) or the connections (remote). Calls after this reject with `Closed`. */
  close = async (): Promise<void> => {
    if (this.#closed) return
    this.#closed = true
    await this.#runtime.dispose()
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close()
  }

  async #call<K extends OperationName>(name: K, input: OperationInput<K>): Promise<OperationOutput<K>> {
    if (this.#closed) throw new MemledgerError("Closed", "this MemoryClient is closed")
    const exit = await this.#runtime.runPromiseExit(callOperation(name, input, this.#caller))
    if (Exit.isSuccess(exit)) return exit.value
    throw fromCause(exit.cause)
  }
}
