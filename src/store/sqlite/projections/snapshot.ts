/**
 * A projection's content as plain sorted rows, for comparing the incrementally maintained
 * projections with a rebuild (`mem verify`, and the property tests).
 */
import type { Db } from "../database.js"

const QUERIES: Record<string, string> = {
  memories: "SELECT * FROM memories ORDER BY key",
  evidence: "SELECT * FROM evidence ORDER BY memory_id",
  fts: "SELECT term, doc, col, offset FROM memories_fts_terms ORDER BY doc, col, offset, term",
  // What BM25 reads of each index as a whole, its row count and token totals: FTS5's averages
  // record, left out when all zeros (an index emptied, which a rebuild never writes).
  ftsTotals: `SELECT 'memories' AS idx, hex(block) AS totals FROM memories_fts_data WHERE id = 1 AND hex(block) GLOB '*[1-9A-F]*'
              UNION ALL SELECT 'cues', hex(block) FROM cues_fts_data WHERE id = 1 AND hex(block) GLOB '*[1-9A-F]*'`,
  conversations: "SELECT * FROM conversations ORDER BY origin",
  memoryCounts: "SELECT * FROM memory_counts ORDER BY grp",
  outcomeDays: "SELECT * FROM outcome_days ORDER BY day, origin",
  privateOutcomes: "SELECT * FROM private_outcomes ORDER BY seq",
  // A cue's key is not part of its meaning: cues are rewritten whenever their memory's change.
  cues: `SELECT memory_id, text, project, weight, anchor_ms, origin, outcome_event_id, recall_event_id, learned_at
           FROM learned_cues ORDER BY memory_id, project, text`,
  cueStates: "SELECT * FROM cue_states ORDER BY memory_id",
  // A place's id and a text's are not part of their meaning either: cues_places numbers places as cues first reach them.
  cueTexts: `SELECT p.project, t.text, t.cues, t.tokens, t.terms, t.exact, (SELECT count(*) FROM learned_cues c WHERE c.text_id = t.id AND c.text = t.text) AS linked
               FROM cue_texts t LEFT JOIN cue_places p ON p.id = t.place ORDER BY p.project, t.text`,
  cuePlaceTexts: `SELECT p.project, x.cues, x.texts, x.inexact FROM cue_place_texts x LEFT JOIN cue_places p ON p.id = x.place ORDER BY p.project`,
  cueTextsFts: `SELECT t.text, v.term, v.col, v.offset FROM cue_texts_fts_terms v JOIN cue_texts t ON t.id = v.doc ORDER BY t.text, v.col, v.offset, v.term`,
  cuesFts: `SELECT c.memory_id, c.project, c.text, t.term, t.col, t.offset FROM cues_fts_terms t JOIN learned_cues c ON c.key = t.doc
              ORDER BY c.memory_id, c.project, c.text, t.col, t.offset, t.term`
}

export type Snapshot = Record<string, unknown[]>

export const snapshotProjections = (db: Db): Snapshot => {
  // FTS5 writes an index's totals to its tables when a transaction or savepoint ends; within a
  // transaction (verify's rebuild) they may still be in memory. A savepoint released writes them.
  db.exec("SAVEPOINT snapshot_fts; RELEASE snapshot_fts")
  return Object.fromEntries(Object.entries(QUERIES).map(([name, sql]) => [name, db.prepare(sql).all().map(normaliseRow)]))
}

/** Names the projections whose rows differ, with the first differing row of each. */
export const diffSnapshots = (a: Snapshot, b: Snapshot): { projection: string; expected: unknown; actual: unknown }[] =>
  Object.keys(QUERIES).flatMap((name) => {
    const left = a[name] ?? []
    const right = b[name] ?? []
    const n = Math.max(left.length, right.length)
    for (let i = 0; i < n; i++) {
      if (JSON.stringify(left[i]) !== JSON.stringify(right[i])) {
        return [{ projection: name, expected: right[i] ?? null, actual: left[i] ?? null }]
      }
    }
    return []
  })

/** Rounds reals to 12 significant digits: decay sums may differ in the last bit, not more. */
const normaliseRow = (row: unknown): unknown =>
  Object.fromEntries(
    Object.entries(row as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === "number" && !Number.isInteger(v) ? Number(v.toPrecision(12)) : v
    ])
  )
