/**
 * What FTS5's `bm25()` scores with, read as FTS5 reads it, so that a score computed here is the
 * very double FTS5 would return: its constants, the row count and total length from the
 * table's averages record (kept exact by removing rows with FTS5's 'delete' command, cues.ts), a
 * word's row count by a MATCH (the count FTS5 takes before it scores), and the logarithm by
 * SQLite's `ln`, the C library's `log` that FTS5 calls.
 */
import type { Db } from "../database.js"
import { statement } from "../statements.js"

/** FTS5's BM25 constants (fts5_aux.c). */
export const K1 = 1.2
export const B = 0.75

export interface FtsTotals {
  readonly rows: number
  readonly avg: number
}

/** The averages record (row 1 of `TABLE_data`): the row count, then each column's total tokens. */
export const ftsTotals = (db: Db, table: "cues_fts"): FtsTotals | undefined => {
  const row = statement(db, `SELECT block FROM ${table}_data WHERE id = 1`).get() as { block: Buffer } | undefined
  if (row === undefined) return undefined
  const [rows = 0, ...columns] = varints(row.block)
  return rows === 0 ? undefined : { rows, avg: columns.reduce((a, b) => a + b, 0) / rows }
}

/** Each word's IDF as FTS5 computes it: ln((N - n + 0.5) / (n + 0.5)), or 1e-6 when not above 0. */
export const idfOf = (db: Db, totals: FtsTotals, hits: ReadonlyArray<number>): number[] => {
  // Bound one by one: a double passed through JSON text could come back a bit off.
  const ln = statement(db, "SELECT ln(?) AS v")
  return hits.map((n) => {
    const { v } = ln.get((totals.rows - n + 0.5) / (n + 0.5)) as { v: number }
    return v <= 0 ? 1e-6 : v
  })
}

/**
 * One row's BM25 as fts5_aux.c sums it, term by term in the query's order: `freqs[i]` is the
 * i-th phrase's weighted count in the row (each instance adding its column's weight), `length`
 * the row's tokens in every column.
 */
export const bm25Of = (idf: ReadonlyArray<number>, freqs: ReadonlyArray<number>, length: number, avg: number): number => {
  let score = 0
  for (let i = 0; i < idf.length; i++) {
    const f = freqs[i]!
    score += idf[i]! * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * length) / avg)))
  }
  return score
}

/** A phrase's weighted count: each instance adds its column's weight, in column order, as fts5_aux.c adds them. */
export const weightedCount = (counts: ReadonlyArray<number>, weights: ReadonlyArray<number>): number => {
  let f = 0
  counts.forEach((n, column) => {
    for (let i = 0; i < n; i++) f += weights[column]!
  })
  return f
}

/** SQLite's varints, as FTS5 writes its records. */
export const varints = (bytes: Uint8Array): number[] => {
  const out: number[] = []
  let i = 0
  while (i < bytes.length) {
    let value = 0
    for (let n = 0; ; n++) {
      const byte = bytes[i++]!
      if (n === 8) {
        value = value * 256 + byte
        break
      }
      value = value * 128 + (byte & 0x7f)
      if ((byte & 0x80) === 0) break
    }
    out.push(value)
  }
  return out
}

/** A row's length in tokens as FTS5 counts it for BM25: its docsize row, a varint per column. */
export const ftsLength = (db: Db, table: "cues_fts", rowid: number): number | undefined => {
  const row = statement(db, `SELECT sz FROM ${table}_docsize WHERE id = ?`).get(rowid) as { sz: Buffer } | undefined
  return row === undefined ? undefined : varints(row.sz).reduce((a, b) => a + b, 0)
}
