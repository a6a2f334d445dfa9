/**
 * The MCP tools: name, title, when to use it, schemas, hints, and the one `Operations` method
 * it calls. No tool holds logic of its own.
 *
 * Annotations are hints a client uses to decide what needs the user's approval:
 * - recall and get_context are marked read-only although they append a `MemoriesRecalled`
 *   event (recall on every call, get_context when a query shows something): that event is an
 *   audit record of what an agent was shown (for task linking), and
 *   changes no memory, score or ranking. Marking them as writes would make clients ask before
 *   every lookup, which is the opposite of what memory is for.
 * - forget, forget_conversation and review (what the user rejects) are destructive: they take
 *   knowledge out of what agents see (a person can bring it back, but an agent cannot).
 * - remember and record_outcome only add: a supersession still leaves the old memory readable.
 * - No tool reaches an open world: everything happens inside the memory store.
 */
import { Schema } from "effect"
import * as In from "../../api/inputs.js"
import type { Caller } from "../../api/operations.js"
import * as Out from "../../api/outputs.js"
import { defineTool, type McpTool } from "./tool.js"
import * as Text from "./tool-text.js"

/**
 * `In.NoInput` (an empty Struct) accepts any value in Effect, extra fields included; a tool
 * that takes nothing refuses anything it is given, as its schema promises.
 */
const NoArguments = Schema.Record({ key: Schema.String, value: Schema.Never })

const reads = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const
const adds = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const
const removes = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const
/** Review forgets what is rejected, and each accept is one more confirmation: not idempotent. */
const reviews = { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false } as const

export const TOOLS: ReadonlyArray<McpTool> = [
  defineTool({
    name: "remember",
    title: "Remember",
    description:
      "Store one piece of knowledge for future sessions: a convention, gotcha, decision, command, workaround or preference. " +
      "Use it when you learn something a later session would need: the user corrects you or states a preference, a fix works after a struggle, a command is not obvious. " +
      "One short, self-contained statement per call. Saying a known memory again confirms it. " +
      "Give it 2 or 3 cues: what someone would ask when they need this memory, worded as they would ask it, as questions or phrasings rather than keywords " +
      '(for "Deploy with: make deploy ENV=prod", cues such as "how do I ship to production?" and "release the app"); a later recall worded that way finds it. ' +
      "If similar memories exist nothing is stored and the reply lists them: call remember again with confirms (it says the same), supersedes (it replaces that one) or distinct_from (it is different) set to that memory's id.",
    annotations: adds,
    input: In.AgentRememberInput,
    output: Out.RememberOutput,
    operation: (o, input, caller) => o.remember(input, caller),
    text: Text.rememberText
  }),
  defineTool({
    name: "recall",
    title: "Recall memories",
    description:
      "Search the memories for a query. Call it before you start a task, and whenever you are unsure how this project does something " +
      "(build and test commands, conventions, past gotchas, decisions). " +
      "Put your own phrasing in query and, in also, the words a stored memory would likely use (the technical terms, command, file or tool names), " +
      'e.g. query "how do we ship to prod" with also ["deploy production", "release"]: a memory worded unlike your question is still found. ' +
      "Returns ranked memories with their ids, track record and how much of the query each answers (and through which cue); memories that failed repeatedly are left out. " +
      "After you act on a memory, report how it went with record_outcome, citing its id.",
    annotations: reads,
    input: In.RecallInput,
    output: Out.RecallOutput,
    operation: (o, input, caller) => o.recall(withCallerTask(input, caller), caller),
    text: Text.recallText
  }),
  defineTool({
    name: "explain",
    title: "Explain a ranking",
    description:
      "Explain how recall ranks a query: every result's score terms (relevance, outcome record, recency, confidence) with the events behind them, " +
      "how much of the query each answers and through which text (its content, a written cue or a cue learned from an earlier conversation), " +
      "and why other memories were left out (not relevant, answers too little of the query, failure gate, superseded, forgotten, past the limit). " +
      "Use it when a result surprises you or the user asks why a memory was or was not used; pass the also that recall was given; `at` answers as of an earlier time.",
    annotations: reads,
    input: In.ExplainInput,
    output: Out.ExplainOutput,
    operation: (o, input, caller) => o.explain(input, caller),
    text: Text.explainText
  }),
  defineTool({
    name: "record_outcome",
    title: "Record an outcome",
    description:
      "Report what happened after you relied on memories from recall or get_context: worked, failed, or partial, citing the ids of the memories you actually used. " +
      "Call it when a task (or step) that used them succeeds or fails. Memories that work rank higher; one that keeps failing drops out of recall. " +
      "Do not cite memories you did not use.",
    annotations: adds,
    input: In.RecordOutcomeInput,
    output: Out.OutcomeOutput,
    operation: (o, input, caller) => o.recordOutcome(input, caller),
    text: Text.outcomeText
  }),
  defineTool({
    name: "forget",
    title: "Forget a memory",
    description:
      "Archive one memory so it no longer appears in recall or context: when it is wrong or obsolete, or the user asks you to forget it. " +
      "When a newer statement replaces it, prefer remember with supersedes. A person can restore it with `mem restore`.",
    annotations: removes,
    input: In.ForgetInput,
    output: Out.ForgetOutput,
    operation: (o, input, caller) => o.forget(input, caller),
    text: Text.forgetText
  }),
  defineTool({
    name: "forget_conversation",
    title: "Forget a conversation",
    description:
      "Withdraw everything one conversation contributed: the memories it added, the outcomes it recorded, the confirmations it made. " +
      "The conversation is named by its origin (the origin field of its memories, as recall or get_memory show). " +
      "Use it only when the user asks that a session not be remembered; undo: true brings it all back.",
    annotations: removes,
    input: In.ForgetConversationInput,
    output: Out.ConversationOutput,
    operation: (o, input, caller) => o.forgetConversation(input, caller),
    text: Text.conversationText
  }),
  defineTool({
    name: "get_context",
    title: "Get session context",
    description:
      "Get the memories to start a session with, within a token budget. Without a query, the project's confirmed rules (conventions and preferences) come first, then the memories with the best track record. " +
      "With a query, only the memories that answer it (any confirmed rule among them first): a query about something else returns nothing, not even the rules. " +
      "With a query, pass in also the words a stored memory would likely use (the technical terms, command, file or tool names), besides your own phrasing in query. " +
      "Call it once without a query at the start of a session or when you switch projects; use recall for specific questions later.",
    annotations: reads,
    input: In.GetContextInput,
    output: Out.ContextOutput,
    operation: (o, input, caller) => o.getContext(withCallerTask(input, caller), caller),
    text: Text.contextText
  }),
  defineTool({
    name: "get_memory",
    title: "Get a memory",
    description:
      "Read one memory in full by its id (or a unique prefix of 6+ characters): text, scope, project, status, confirmations, where it came from, and its outcome record. " +
      "Use it to check a memory before relying on it, or to find the origin of the conversation that stored it.",
    annotations: reads,
    input: In.MemoryIdInput,
    output: Out.MemoryOutput,
    operation: (o, input, caller) => o.getMemory(input, caller),
    text: Text.jsonText
  }),
  defineTool({
    name: "review",
    title: "Review tentative memories",
    description:
      "List the tentative memories: rules memledger noticed in the user's prompts, and memories not yet confirmed, each with where it came from. " +
      "Call it when the user asks to review what was remembered; show them the list, and pass the ids they accept in accept (each is confirmed) " +
      "and the ids they reject in reject (each is forgotten). Never accept or reject on your own judgement: the review is the user's.",
    annotations: reviews,
    input: In.ReviewInput,
    output: Out.ReviewOutput,
    operation: (o, input, caller) => o.review(input, caller),
    text: Text.jsonText
  }),
  defineTool({
    name: "stats",
    title: "Store statistics",
    description:
      "Counts for the memory store: memories (live, forgotten, superseded), events, conversations, outcomes, and whether search is keyword or hybrid. " +
      "Use it to check that memledger is connected and working.",
    annotations: reads,
    input: NoArguments,
    output: Out.StatsOutput,
    operation: (o, input, caller) => o.stats(input, caller),
    text: Text.jsonText
  })
]

export const toolNamed = (name: string): McpTool | undefined => TOOLS.find((t) => t.definition.name === name)

/** A recall links to the task in progress where the client runs, unless the call names one. */
function withCallerTask<I extends { readonly task?: string | undefined }>(input: I, caller: Caller): I {
  return input.task === undefined && caller.task !== undefined ? { ...input, task: caller.task } : input
}
