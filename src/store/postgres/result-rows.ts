/**
 * Memories by key inside a read-only transaction, each with what a search reads of its results
 * next (ranking-run.ts, retrieval.ts): its learned cues and its short id. One statement rather
 * than three; the extras are kept in the transaction's memo (read-memo.ts), where the port's
 * `learnedCues` and `shortIds` find them.
 */
import type { LearnedCueRow } from "../../projections/cue-state.js"
import type { MemoryState } from "../../projections/memory-state.js"
import { MEMORY_COLUMNS, rowToMemory, type MemoryRow } from "../projection-rows.js"
import { shortestUniquePrefix } from "../read-folds.js"
import { CUE_COLUMNS } from "./projections.js"
import type { ReadMemo } from "./read-memo.js"
import type { SyncPg } from "./sync-client.js"

type Row = MemoryRow & { id_before: string | null; id_after: string | null; learned: LearnedCueRow[] | null }

const WITH_EXTRAS = `
  SELECT ${MEMORY_COLUMNS.split(", ").map((c) => `m.${c}`).join(", ")},
         (SELECT b.id FROM memories b WHERE b.id < m.id ORDER BY b.id DESC LIMIT 1) AS id_before,
         (SELECT a.id FROM memories a WHERE a.id > m.id ORDER BY a.id LIMIT 1) AS id_after,
         (SELECT json_agg(c ORDER BY c.key) FROM (SELECT ${CUE_COLUMNS} FROM learned_cues WHERE memory_id = m.id) c) AS learned
    FROM memories m WHERE m.key = ANY($1)`

export const memoriesWithExtras = (db: SyncPg, memo: ReadMemo, keys: ReadonlyArray<number>): Map<number, MemoryState> => {
  const out = new Map<number, MemoryState>()
  if (keys.length === 0) return out
  for (const row of db.query<Row>(WITH_EXTRAS, [keys])) {
    memo.keepMemory(row.id, row.learned ?? [], shortestUniquePrefix(row.id, row.id_before, row.id_after))
    out.set(row.key, rowToMemory(row))
  }
  return out
}
