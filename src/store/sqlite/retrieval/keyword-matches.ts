/**
 * Keyword candidates on SQLite: each phrasing's best matches by the memories' own text
 * (`memories_fts`) and by their learned cues (`cues_fts`), read once, keys and BM25 only; the
 * rank fields of as many as a ranking asks for are read apart. A search ranks the best few
 * first and widens to all it read only when they cannot decide (ranking-run.ts), so the
 * full-text statements, which score every match in scope, run once a search either way.
 */
import type { LedgerConfig } from "../../../config.js"
import type { Db } from "../database.js"
import { statement } from "../statements.js"
import { askThread, collectAnswer, timedHere } from "../read-offload.js"
import { inPlaces, placeTokensOf } from "../projections/fts-scope.js"
import { cueKeyRange, PLACE_SPAN } from "../projections/cues.js"
import { bestCuesByText, prepareCueTextQuery, searchedByTexts, type CueTextQuery } from "./cue-text-matches.js"
import { ftsMatchExpression, queryWords } from "../../../retrieval/fts-query.js"
import { cueWeightAt } from "../../../projections/cue-state.js"
import { candidateLimit, type KeywordCandidates, type Scope } from "../../../retrieval/candidate.js"
import { combinePhrasings, type MatchRow, type PhrasingMatches } from "../../../retrieval/phrasing-matches.js"

/**
 * The `count` best keyword matches in scope for each phrasing (by default `candidateLimit`),
 * from the memories' own text (content, written cues, tags, category, code words) and from
 * their learned cues. A memory's keyword signal is its best match: BM25 of its text, or of a
 * learned cue times `learnedCueWeight` and the cue's decayed weight (at most 1). With several
 * phrasings, each phrasing's signals are scaled to its best and the best phrasing counts.
 * Among equally relevant matches at the cut, which are kept is SQLite's choice.
 */
export const keywordCandidates = (
  db: Db,
  phrasings: ReadonlyArray<string>,
  scope: Scope,
  limit: number,
  config: LedgerConfig,
  nowMs: number,
  count = candidateLimit(limit, config)
): KeywordCandidates => {
  const read = Math.max(count, candidateLimit(limit, config))
  const best = new Map(phrasings.map((p) => [p, bestMatches(db, p, scope, read, config)]))
  const candidatesOf = (n: number): KeywordCandidates => {
    const found = combinePhrasings(phrasings, n, (p) => withRankFields(db, best.get(p), n, scope, config, nowMs))
    const candidates: KeywordCandidates = Object.assign(found, { widen: () => (n >= read ? candidates : candidatesOf(read)) })
    return candidates
  }
  return candidatesOf(count)
}

interface Match {
  readonly key: number
  readonly relevance: number
}

/** Undefined when the phrasing holds no searchable word. */
const bestMatches = (db: Db, phrasing: string, scope: Scope, count: number, config: LedgerConfig) => {
  const words = ftsMatchExpression(phrasing)
  if (words === undefined) return undefined
  // The cues' statement may run on the store's reader thread while the content's runs here.
  const cues = cueMatches(db, phrasing, words, scope, count, config)
  return { content: contentMatches(db, words, scope, count, config), cues: cues() }
}

// Scope, liveness and category are tokens of the index itself (fts-scope.ts), so FTS5 scores
// only the matches in scope. Ordered by the selected column, so BM25 is computed once per
// match, not twice (-x DESC orders exactly as x ASC, ties included).
const contentMatches = (db: Db, words: string, scope: Scope, count: number, config: LedgerConfig): Match[] =>
  statement(
    db,
    `SELECT rowid AS key, -bm25(memories_fts, ${config.fieldWeights.join(", ")}, 0) AS relevance FROM memories_fts
      WHERE memories_fts MATCH ? ORDER BY relevance DESC LIMIT ?`
  ).all(inPlaces(words, placeTokensOf(scope.project, true, scope.viewer), scope.category), count) as Match[]

// A cue's key says where it applies (cues.ts): the best of each place searched, then the best
// of those. Whether its memory is live, in scope, of the category and the reader's to see is
// checked on the memory row (withRankFields), since a cue's row does not follow its memory's
// changes. A place whose cues repeat is searched by its distinct texts (cue-text-matches.ts),
// others by FTS5 over every cue: the same BM25 either way. When FTS5 scores every place, its
// statements go to the reader thread (read-offload.ts), if the store has one, and the cues are
// collected by the function returned.
const cueMatches = (db: Db, phrasing: string, words: string, scope: Scope, count: number, config: LedgerConfig): (() => Match[]) => {
  const sql = `SELECT rowid AS key, -bm25(cues_fts, 1, ${config.fieldWeights[4]}, 0) AS relevance FROM cues_fts
      WHERE cues_fts MATCH ? AND rowid BETWEEN ? AND ? ORDER BY relevance DESC LIMIT ?`
  const params = (range: { first: number; last: number }) => [`{text code} : (${words})`, range.first, range.last, count]
  const places = scope.project === null ? [null] : [null, scope.project]
  const ranges = places.flatMap((place) => cueKeyRange(db, place) ?? [])
  const strongest = (found: Match[]) => (ranges.length === 1 ? found : found.sort((a, b) => b.relevance - a.relevance).slice(0, count))
  if (ranges.length === 0) return () => []
  if (ranges.some((range) => searchedByTexts(db, range.first / PLACE_SPAN))) {
    let byText: { query: CueTextQuery | undefined } | undefined
    const found = ranges.flatMap((range) => {
      if (searchedByTexts(db, range.first / PLACE_SPAN)) {
        byText ??= { query: prepareCueTextQuery(db, queryWords(phrasing), [1, config.fieldWeights[4]!]) }
        const best = byText.query && bestCuesByText(db, byText.query, words, range, count)
        if (best) return best
      }
      return statement(db, sql).all(...params(range)) as Match[]
    })
    return () => strongest(found)
  }
  const statements = ranges.map((range) => ({ sql, params: params(range) }))
  const question = { key: JSON.stringify(["cues", statements]) }
  askThread(db, question, () => statements)
  return () => {
    const asked = collectAnswer(db, question)
    if (asked !== undefined) return strongest(asked.flatMap((rows) => rows.map(([key, relevance]) => ({ key: key as number, relevance: relevance as number }))))
    return strongest(timedHere(db, () => ranges.flatMap((range) => statement(db, sql).all(...params(range)) as Match[])))
  }
}

/** The best `n` of a phrasing's matches with what ranking needs of their memories. */
const withRankFields = (
  db: Db,
  best: { content: Match[]; cues: Match[] } | undefined,
  n: number,
  scope: Scope,
  config: LedgerConfig,
  nowMs: number
): PhrasingMatches | undefined => {
  if (best === undefined) return undefined
  const content = best.content.slice(0, n)
  const cues = best.cues.slice(0, n)
  const contentFields = statement(
    db,
    `SELECT j.key AS i, m.key, m.id, m.created_at, m.confidence, m.confirmations, e.worked, e.failed, e.anchor_ms
       FROM json_each(?) j JOIN memories m ON m.key = j.value LEFT JOIN evidence e ON e.memory_id = m.id ORDER BY j.key`
  ).all(JSON.stringify(content.map((c) => c.key))) as Array<Omit<MatchRow, "relevance"> & { i: number }>
  // CROSS JOIN keeps the cues' order first in the plan.
  const cueFields = statement(
    db,
    `SELECT j.key AS i, m.key, c.weight, c.anchor_ms AS cue_anchor_ms, m.id, m.created_at, m.confidence, m.confirmations, m.category,
            e.worked, e.failed, e.anchor_ms
       FROM json_each(?) j
       CROSS JOIN learned_cues c ON c.key = j.value
       LEFT JOIN memories m ON m.id = c.memory_id AND m.forgotten = 0 AND m.superseded_by IS NULL AND (m.project IS NULL OR m.project IS ?)
                           AND (m.private_to IS NULL OR m.private_to IS ?)
       LEFT JOIN evidence e ON e.memory_id = m.id
      ORDER BY j.key`
  ).all(JSON.stringify(cues.map((c) => c.key)), scope.project, scope.viewer ?? null) as Array<
    Omit<MatchRow, "key" | "relevance"> & { i: number; key: number | null; weight: number; cue_anchor_ms: number; category: string }
  >
  // A cue's weight counts at most 1, so no unread cue scores above the weakest one read.
  const cueFloor = cues.length >= n ? Math.min(...cues.map((c) => c.relevance)) * config.learnedCueWeight : 0
  const cueRows = cueFields.flatMap((r) => {
    if (r.key === null || (scope.category !== undefined && r.category !== scope.category)) return []
    const weight = Math.min(1, cueWeightAt({ weight: r.weight, anchorMs: r.cue_anchor_ms }, nowMs, config.halfLifeDays))
    return [{ ...r, key: r.key, relevance: cues[r.i]!.relevance * config.learnedCueWeight * weight }]
  })
  return { content: contentFields.map((r) => ({ ...r, relevance: content[r.i]!.relevance })), cues: cueRows, cueFloor }
}
