/**
 * The session index (docs/hooks.md): what an agent sees when a session starts, resumes, clears or
 * compacts. The confirmed rules of this project and global ones, grouped by category with
 * short ids, then the memories most useful here, within the token budget (all from the same
 * `getContext` every surface uses); then the conversation's origin, so the agent can pass it
 * when it records an outcome or a memory.
 */
import { Effect } from "effect"
import { Operations, type Caller } from "../api/operations.js"

export const DEFAULT_INDEX_BUDGET = 1_500
/** Room kept for the origin line, which is short (about 40 tokens). */
const ORIGIN_LINE_TOKENS = 80

export const originLine = (origin: string): string =>
  `This conversation's origin is ${JSON.stringify(origin)}: pass it as \`origin\` when you call remember or record_outcome.`

export const sessionIndex = (caller: Caller, budget = DEFAULT_INDEX_BUDGET) =>
  Effect.gen(function* () {
    const ops = yield* Operations
    const context = yield* ops.getContext({ budget: Math.max(50, budget - ORIGIN_LINE_TOKENS) }, caller)
    const body = context.text.length > 0 ? context.text : "## Memories from memledger\nNo memory applies to this project yet."
    return `${body}\n\n${originLine(caller.origin)}`
  })
