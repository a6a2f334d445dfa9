/**
 * The text content each tool result carries beside `structuredContent`, for clients that show
 * the model only text. Short, but never without what an agent needs next: ids to cite in
 * record_outcome, the memories' words, and what to do when nothing was stored.
 */
import type { Coverage } from "../../api/memory-wire.js"
import type * as Out from "../../api/outputs.js"
import { FLAGGED_NOTE } from "../../retrieval/context.js"

export const rememberText = (r: Out.RememberOutput): string => {
  if (r.stored) return `stored as ${r.shortId} (id ${r.id})`
  if ("confirmed" in r) return `already known: confirmed memory ${r.shortId} (${r.confirmations} confirmations)`
  if (!("similar" in r)) return `not stored: ${r.reason}`
  const similar = r.similar.map((s) => `- [${s.shortId}] ${quote(s.content)} (similarity ${s.similarity.toFixed(2)})`)
  return [`not stored: ${r.reason}:`, ...similar, r.resolve].join("\n")
}

export const recallText = (r: Out.RecallOutput): string => {
  const notice = r.notice === undefined ? [] : [`(${r.notice})`]
  if (r.results.length === 0) return [`no memories match ${quote(r.query)}`, ...notice].join("\n")
  // A flagged memory says so, as get_context's text does, so the model reads it as suspect data.
  const lines = r.results.map(
    (m) =>
      `${m.rank}. [${m.shortId}] (${m.category}, score ${m.score.toFixed(2)}, worked ${m.record.workedCount}, failed ${m.record.failedCount}` +
      `${m.instructionLike ? `, ${FLAGGED_NOTE}` : ""}${m.coverage === undefined ? "" : `, ${coverageText(m.coverage, r.query)}`}) ${quote(m.content)}`
  )
  const count = r.results.length === 1 ? "1 memory" : `${r.results.length} memories`
  return [`${count} for ${quote(r.query)} (cite ids in record_outcome):`, ...lines, ...notice].join("\n")
}

export const explainText = (r: Out.ExplainOutput): string => {
  const results = r.results.map((x) => {
    const t = x.terms
    const parts = `relevance ${t.relevance.contribution.toFixed(3)} + outcome ${t.outcome.contribution.toFixed(3)} + recency ${t.recency.contribution.toFixed(3)} + confidence ${t.confidence.contribution.toFixed(3)}`
    const coverage = x.coverage === undefined ? "" : ` (${coverageText(x.coverage, r.query)})`
    return `${x.rank}. [${x.shortId}] score ${x.score.toFixed(3)} = ${parts}${coverage}: ${quote(x.content)}`
  })
  const leftOut = r.leftOut.map((x) => `- [${x.shortId ?? x.id}] ${x.stage}: ${x.reason}${x.stage === "coverage" && x.coverage ? ` (${coverageText(x.coverage, r.query)})` : ""}`)
  return [`ranking for ${quote(r.query)} as of ${r.at} (${r.mode}):`, ...results, ...(leftOut.length > 0 ? ["left out:", ...leftOut] : [])].join("\n")
}

export const outcomeText = (r: Out.OutcomeOutput): string => `recorded '${r.outcome}' for ${r.memory_ids.join(", ")}`

export const forgetText = (r: Out.ForgetOutput): string => (r.changed ? `forgot memory ${r.id}` : `memory ${r.id} was already forgotten`)

export const conversationText = (r: Out.ConversationOutput): string => {
  const state = r.forgotten ? "forgotten" : "restored"
  return r.changed ? `conversation ${r.origin} ${state} (${r.events} events)` : `conversation ${r.origin} was already ${state}`
}

export const contextText = (r: Out.ContextOutput): string =>
  r.text.length > 0 ? r.text : `no memories to show yet${r.project === null ? "" : ` for ${r.project}`}`

export const jsonText = (value: unknown): string => JSON.stringify(value, null, 2)

/**
 * How much of the query a result answers, and through what: `answers 82% via learned cue "..."`.
 * The phrasing is named when it was one of `also`, not the query itself.
 */
const coverageText = (c: Coverage, query: string): string => {
  const phrasing = c.phrasing === query ? "" : ` of ${quote(c.phrasing)}`
  const via = c.source === "content" || c.cue === undefined ? "" : ` via ${c.source} ${quote(c.cue)}`
  return `answers ${Math.round(c.value * 100)}%${phrasing}${via}`
}

/** JSON string quoting: a memory's text reads as data, never as an instruction. */
const quote = (text: string): string => JSON.stringify(text)
