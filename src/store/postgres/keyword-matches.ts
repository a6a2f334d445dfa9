/**
 * One phrasing's keyword matches on PostgreSQL, by the memories' own text and by learned cues
 * (keyword-search.ts), as the SQLite store's keyword-matches.ts reads them: when a search
 * reads every row of its words, it keeps the best `read` (what a widened search asks for),
 * and joins what ranking needs of a match only for the best `count`; widening then reads the
 * rest's fields by key rather than searching again. A search settled best first holds only
 * its `count`, and widening searches again.
 */
import type { LedgerConfig } from "../../config.js"
import { cueWeightAt } from "../../projections/cue-state.js"
import type { Scope } from "../../retrieval/candidate.js"
import type { MatchRow, PhrasingMatches } from "../../retrieval/phrasing-matches.js"
import { categoryToken, placeTokensOf } from "../../retrieval/place-tokens.js"
import type { IndexName } from "./keyword-index.js"
import { bm25Best, type IndexStatistics, type WeighedQuery } from "./keyword-search.js"
import type { SyncPg } from "./sync-client.js"

/** A match as searched: its fields are null when it was beyond the rows whose fields were joined. */
type ContentRow = MatchRow & { readonly reach: number }
type CueRow = Omit<ContentRow, "key"> & { cue_key: number; key: number | null; weight: number; cue_anchor_ms: number; category: string }

/** One index's matches, best first: the best `upTo` (all of them when fewer), fields joined for the first `fields`. */
interface IndexMatches<Row> {
  rows: Row[]
  upTo: number
  fields: number
}

/** A phrasing's matches in both indexes, searched again for more rows only when they hold too few. */
export interface PhrasingReads {
  readonly query: WeighedQuery
  /** Both indexes' statistics for its terms, read once (readStatistics). */
  readonly statistics: Record<IndexName, IndexStatistics>
  content: IndexMatches<ContentRow>
  cues: IndexMatches<CueRow>
}

/** A memory's rank fields (its key in parameter or column `key`). */
const contentFields = (key: string) => `
  SELECT m.id, m.created_at, m.confidence, m.confirmations, e.worked, e.failed, e.anchor_ms
    FROM memories m LEFT JOIN evidence e ON e.memory_id = m.id WHERE m.key = ${key}`

/** A learned cue's weight and its memory's rank fields, the memory's only when it is live, in the project ($p) and the reader's ($v) to see. */
const cueFields = (key: string, p: number, v: number) => `
  SELECT m.key, c.weight, c.anchor_ms AS cue_anchor_ms, m.id, m.created_at, m.confidence, m.confirmations, m.category, e.worked, e.failed, e.anchor_ms
    FROM learned_cues c
    LEFT JOIN memories m ON m.id = c.memory_id AND m.forgotten = 0 AND m.superseded_by IS NULL
                        AND (m.project IS NULL OR m.project IS NOT DISTINCT FROM $${p})
                        AND (m.private_to IS NULL OR m.private_to IS NOT DISTINCT FROM $${v})
    LEFT JOIN evidence e ON e.memory_id = m.id
   WHERE c.key = ${key}`

/**
 * The search's rows numbered best first, each joined to `fields` only up to number $`n`.
 * OFFSET 0 keeps each join a subquery of its own, so that its condition on the number skips
 * the probe rather than filtering its answer.
 */
const numbered = (matches: string, fields: string, n: number) => `
  SELECT f.key AS match_key, f.relevance, f.reach, x.*
    FROM (SELECT s.*, row_number() OVER (ORDER BY s.relevance DESC, s.key) AS n FROM (${matches}) s) f
    LEFT JOIN LATERAL (${fields} AND f.n <= $${n} OFFSET 0) x ON TRUE
   ORDER BY f.n`

const searchContent = (db: SyncPg, p: PhrasingReads, scope: Scope, count: number, read: number, config: LedgerConfig): IndexMatches<ContentRow> => {
  const found = bm25Best<ContentRow & { match_key: number }>(db, p.query, {
    index: "memories",
    weights: config.fieldWeights.slice(0, 5),
    places: placeTokensOf(scope.project, true, scope.viewer),
    count,
    read,
    params: [count, ...(scope.category === undefined ? [] : [categoryToken(scope.category)])],
    ...(scope.category === undefined ? {} : { where: "t.category = $7" }),
    around: (matches) => numbered(matches, contentFields("f.key"), 6)
  }, p.statistics.memories)
  return { rows: found.rows.map((r) => Object.assign(r, { key: r.match_key })), upTo: found.upTo, fields: count }
}

const searchCues = (db: SyncPg, p: PhrasingReads, scope: Scope, count: number, read: number, config: LedgerConfig): IndexMatches<CueRow> => {
  const found = bm25Best<CueRow & { match_key: number }>(db, p.query, {
    index: "cues",
    weights: [1, config.fieldWeights[4]!],
    places: placeTokensOf(scope.project, true),
    count,
    read,
    params: [scope.project, scope.viewer ?? null, count],
    around: (matches) => numbered(matches, cueFields("f.key", 6, 7), 8)
  }, p.statistics.cues)
  return { rows: found.rows.map((r) => Object.assign(r, { cue_key: r.match_key })), upTo: found.upTo, fields: count }
}

/** A phrasing's search in both indexes, given their statistics for its terms. */
export const readPhrasing = (
  db: SyncPg,
  query: WeighedQuery,
  statistics: Record<IndexName, IndexStatistics>,
  scope: Scope,
  count: number,
  read: number,
  config: LedgerConfig
): PhrasingReads => {
  const p = { query, statistics } as PhrasingReads
  p.content = searchContent(db, p, scope, count, read, config)
  p.cues = searchCues(db, p, scope, count, read, config)
  return p
}

/** The best `n` of each index's matches, searched again when fewer were read, with the fields of each. */
export const matchesAt = (db: SyncPg, reads: PhrasingReads, n: number, scope: Scope, config: LedgerConfig, nowMs: number): PhrasingMatches => {
  // Fewer rows than `upTo` means every match was read.
  const short = (m: IndexMatches<unknown>) => m.upTo < n && m.rows.length >= m.upTo
  if (short(reads.content)) reads.content = searchContent(db, reads, scope, n, n, config)
  if (short(reads.cues)) reads.cues = searchCues(db, reads, scope, n, n, config)
  const content = withFields(reads.content, n, (rows) => contentFieldsOf(db, rows))
  const cues = withFields(reads.cues, n, (rows) => cueFieldsOf(db, rows, scope))
  // A cue's weight counts at most 1, so no unread cue scores above the weakest one read.
  const cueFloor = cues.length >= n ? Math.min(...cues.map((r) => r.relevance)) * config.learnedCueWeight : 0
  const cueRows = cues
    .filter((r): r is CueRow & { key: number } => r.key !== null && (scope.category === undefined || r.category === scope.category))
    .map((r) => ({ ...r, relevance: r.relevance * config.learnedCueWeight * Math.min(1, cueWeightAt({ weight: r.weight, anchorMs: r.cue_anchor_ms }, nowMs, config.halfLifeDays)) }))
  return { content, cues: cueRows, cueFloor }
}

/** The first `n` rows, those beyond the joined ones given their fields first. */
const withFields = <Row>(matches: IndexMatches<Row>, n: number, fill: (rows: Row[]) => void): Row[] => {
  const rows = matches.rows.slice(0, n)
  if (rows.length > matches.fields) {
    fill(rows.slice(matches.fields))
    matches.fields = rows.length
  }
  return rows
}

const contentFieldsOf = (db: SyncPg, rows: ContentRow[]): void => {
  const fields = db.query<ContentRow>(`SELECT k.key, x.* FROM unnest($1::bigint[]) AS k(key) CROSS JOIN LATERAL (${contentFields("k.key")}) x`, [rows.map((r) => r.key)])
  const byKey = new Map(fields.map((f) => [f.key, f]))
  for (const r of rows) Object.assign(r, byKey.get(r.key))
}

const cueFieldsOf = (db: SyncPg, rows: CueRow[], scope: Scope): void => {
  const fields = db.query<CueRow>(`SELECT k.key AS cue_key, x.* FROM unnest($1::bigint[]) AS k(key) CROSS JOIN LATERAL (${cueFields("k.key", 2, 3)}) x`, [
    rows.map((r) => r.cue_key),
    scope.project,
    scope.viewer ?? null
  ])
  const byKey = new Map(fields.map((f) => [f.cue_key, f]))
  for (const r of rows) Object.assign(r, byKey.get(r.cue_key))
}
