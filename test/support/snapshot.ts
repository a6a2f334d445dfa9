/**
 * The projections as plain sorted arrays, for comparing an incrementally maintained store with
 * a rebuild or a replay. FTS is contentless, so its content is read per memory from an
 * fts5vocab view of the index (term, column, offset), keyed by memory id rather than rowid.
 */
import { expect } from "vitest"
import type { Db } from "../../src/store/sqlite/database.js"

type Row = Record<string, unknown>

export interface ProjectionSnapshot {
  readonly memories: Row[]
  readonly evidence: Row[]
  /** Per memory id, its indexed terms as `column:offset:term`. */
  readonly fts: { readonly id: string; readonly terms: string[] }[]
  /** Index rowids that belong to no memory: must be empty. */
  readonly ftsOrphans: number[]
  /**
   * What BM25 reads of each full-text index as a whole: its row count and each column's token
   * total (FTS5's averages record), which a removed row must leave as if it had never been.
   */
  readonly ftsTotals: { readonly memories: string; readonly cues: string }
  readonly conversations: Row[]
  /** Learned cues without their row key, each with its indexed terms; and each memory's cue state. */
  readonly cues: Row[]
  readonly cueStates: Row[]
  /** The overview's counts: memories per group, and outcomes per day and conversation. */
  readonly memoryCounts: Row[]
  readonly outcomeDays: Row[]
  /** Outcomes naming a memory some event made private, counted apart. */
  readonly privateOutcomes: Row[]
}

export type Part = keyof ProjectionSnapshot

export interface SnapshotOptions {
  /** Leave out columns that hold sequence numbers, for comparing stores whose logs differ. */
  readonly withoutSeq?: boolean
}

export const snapshot = (db: Db, options: SnapshotOptions = {}): ProjectionSnapshot => {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_fts_terms USING fts5vocab(main, memories_fts, instance)")
  const memories = db.prepare("SELECT * FROM memories ORDER BY id").all() as Row[]
  const termsOf = db.prepare("SELECT col, offset, term FROM temp.test_fts_terms WHERE doc = ? ORDER BY col, offset, term")
  const fts = memories.map((m) => ({
    id: m.id as string,
    terms: (termsOf.all(m.key) as { col: string; offset: number; term: string }[]).map((t) => `${t.col}:${t.offset}:${t.term}`)
  }))
  const keys = new Set(memories.map((m) => m.key))
  const ftsOrphans = (db.prepare("SELECT DISTINCT doc FROM temp.test_fts_terms ORDER BY doc").all() as { doc: number }[])
    .map((r) => r.doc)
    .filter((doc) => !keys.has(doc))
  return {
    memories: options.withoutSeq ? memories.map(({ key: _key, last_seq: _lastSeq, ...rest }) => rest) : memories,
    evidence: db.prepare("SELECT * FROM evidence ORDER BY memory_id").all() as Row[],
    fts,
    ftsOrphans,
    ftsTotals: { memories: averagesOf(db, "memories_fts"), cues: averagesOf(db, "cues_fts") },
    conversations: db.prepare("SELECT * FROM conversations ORDER BY origin").all() as Row[],
    cues: learnedCues(db),
    cueStates: db.prepare("SELECT * FROM cue_states ORDER BY memory_id").all() as Row[],
    memoryCounts: db.prepare("SELECT * FROM memory_counts ORDER BY grp").all() as Row[],
    outcomeDays: db.prepare("SELECT * FROM outcome_days ORDER BY day, origin").all() as Row[],
    privateOutcomes: db.prepare("SELECT * FROM private_outcomes ORDER BY seq").all() as Row[]
  }
}

const learnedCues = (db: Db): Row[] => {
  db.exec("CREATE VIRTUAL TABLE IF NOT EXISTS temp.test_cue_terms USING fts5vocab(main, cues_fts, instance)")
  const termsOf = db.prepare("SELECT col, offset, term FROM temp.test_cue_terms WHERE doc = ? ORDER BY col, offset, term")
  const textOf = db.prepare("SELECT t.text, t.cues, t.tokens, t.terms, t.exact FROM cue_texts t WHERE t.id = ?")
  const rows = db.prepare("SELECT * FROM learned_cues ORDER BY memory_id, project, text").all() as Row[]
  // Keys and text ids are numbered in the order cues were written; the shared text row is compared instead.
  return rows.map(({ key, text_id, ...rest }) => ({
    ...rest,
    sharedText: textOf.get(text_id),
    terms: (termsOf.all(key) as { col: string; offset: number; term: string }[]).map((t) => `${t.col}:${t.offset}:${t.term}`)
  }))
}

/**
 * Asserts the chosen parts are equal; reals (decay sums, confidence) may differ by 1e-9
 * relative, everything else must match exactly. A failure shows the usual structural diff.
 */
export const expectSameProjections = (actual: ProjectionSnapshot, expected: ProjectionSnapshot, parts: ReadonlyArray<Part>): void => {
  for (const part of parts) expect(within(actual[part], expected[part]), `projection ${part}`).toEqual(expected[part])
}

const RELATIVE_TOLERANCE = 1e-9

/** `actual` with every real that is close to its counterpart replaced by that counterpart. */
const within = (actual: unknown, expected: unknown): unknown => {
  if (typeof actual === "number" && typeof expected === "number") {
    const scale = Math.max(Math.abs(actual), Math.abs(expected))
    return Math.abs(actual - expected) <= RELATIVE_TOLERANCE * scale ? expected : actual
  }
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.map((a, i) => within(a, expected[i]))
  if (isRecord(actual) && isRecord(expected)) {
    return Object.fromEntries(Object.entries(actual).map(([k, v]) => [k, within(v, expected[k])]))
  }
  return actual
}

const isRecord = (u: unknown): u is Row => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * FTS5 keeps its averages record at id 1 of the index's `_data` table. An index never written
 * has none; one whose every row was removed has one of zeros: the same totals, both as "".
 */
const averagesOf = (db: Db, index: string): string => {
  const block = (db.prepare(`SELECT hex(block) AS block FROM ${index}_data WHERE id = 1`).get() as { block: string } | undefined)?.block ?? ""
  return /^0*$/.test(block) ? "" : block
}
