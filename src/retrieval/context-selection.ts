/**
 * Which memories a session's context offers, in order: with a query, only the memories that
 * answer it (ranked, and covering enough of the query to be more than a shared word), rules
 * first; without one, the confirmed rules of the project and global ones, then the memories
 * with the best record.
 *
 * With a query, rules that do not answer it are left out on purpose: the prompt hook sends every
 * user prompt as the query (src/hooks/handlers.ts), and a prompt about something unrelated must
 * inject nothing rather than the same rules on every turn. The rules belong to the context
 * without a query, which a session asks for once at its start. The MCP tool and prompt
 * descriptions and docs/mcp.md tell agents this; keep them in step.
 *
 * A rule is a confirmed preference or convention that a person confirmed or that was stated in
 * two conversations (domain/vouching.ts): what one agent wrote alone is offered as a memory, so
 * one session cannot plant a standing order for every later one. A memory the privacy scan
 * flagged as instruction-like is never a rule, even once confirmed. It may still answer a
 * query, as quoted data marked as flagged (what recall would show anyway); without a query
 * nothing asked for it, so it is left out.
 */
import type { LedgerConfig } from "../config.js"
import { decayedCounts, outcomeScore } from "../projections/evidence-state.js"
import type { MemoryState } from "../projections/memory-state.js"
import { RULE_CONVERSATIONS } from "../domain/vouching.js"
import type { LedgerReads } from "../store/ledger-reads.js"
import type { ContextItem } from "./context.js"
import { runRanking } from "./ranking-run.js"
import type { QueryVector } from "./candidate.js"

/** Categories whose confirmed memories are standing rules for every session. */
export const RULE_CATEGORIES = new Set(["preference", "convention"])

/** A standing rule for every session: see the module comment. */
export const isRule = (m: MemoryState): boolean =>
  m.status === "confirmed" &&
  !m.instructionLike &&
  RULE_CATEGORIES.has(m.category) &&
  (m.confirmedByPerson || m.statedIn.length >= RULE_CONVERSATIONS)

/** How much of a query's information a memory must hold to be injected unasked. */
export const MIN_CONTEXT_COVERAGE = 0.5

const USEFUL_LIMIT = 30

export const selectContext = (
  reads: LedgerReads,
  input: { readonly project: string | null; readonly query?: string; readonly also?: ReadonlyArray<string> },
  nowMs: number,
  config: LedgerConfig,
  vector?: QueryVector
): ContextItem[] => {
  const item = (memory: MemoryState): ContextItem => ({
    memory,
    shortId: reads.shortId(memory.id),
    rule: isRule(memory)
  })
  // Rules first, grouped by category (a stable sort keeps each group's own order).
  const rulesFirst = (items: ContextItem[]) => [
    ...items.filter((i) => i.rule).sort((a, b) => a.memory.category.localeCompare(b.memory.category)),
    ...items.filter((i) => !i.rule)
  ]
  if (input.query !== undefined && input.query.trim().length > 0) {
    const also = input.also === undefined ? {} : { also: input.also }
    const run = runRanking(reads, { query: input.query, limit: USEFUL_LIMIT, project: input.project, ...also }, nowMs, config, vector)
    const results = run.ranking.results.filter((r) => !r.probation)
    // Stricter than search's own cut (config.minCoverage): context is offered unasked.
    const answers = (r: (typeof results)[number]) =>
      (r.coverage?.value ?? 0) >= MIN_CONTEXT_COVERAGE || (vector !== undefined && r.terms.relevance.vector > 0 && r.terms.relevance.cosine >= config.contextMinCosine)
    return rulesFirst(results.filter(answers).map((r) => item(r.memory)))
  }
  const scored = reads.offeredUnasked(input.project).map((memory) => {
    const evidence = reads.evidence(memory.id)
    const { worked, failed } = evidence ? decayedCounts(evidence, nowMs, config.halfLifeDays) : { worked: 0, failed: 0 }
    return { memory, record: outcomeScore(worked, failed, config.failureWeight) }
  })
  // Project memories before global ones, then the best record; the failure gate still applies.
  const useful = scored
    .filter((s) => s.record > config.failureGate)
    .sort((a, b) => Number(a.memory.project === null) - Number(b.memory.project === null) || b.record - a.record)
  return rulesFirst(useful.map((s) => item(s.memory)))
}
